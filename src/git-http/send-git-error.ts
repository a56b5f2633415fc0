import type { ErrorRequestHandler } from 'express';
import {
  NotFoundError,
  NotOrganizationMemberError,
  PermissionDeniedError,
  SpecbaseError,
  UnauthorizedError,
} from '../errors.js';

/**
 * Maps errors to plain-text responses; git prints a text/plain body of a failed request as
 * `remote: <text>`, so the reason reaches the engineer's terminal.
 */
export function gitErrorHandler(realm: string): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    if (error instanceof UnauthorizedError) {
      res.setHeader('WWW-Authenticate', `Basic realm="${realm.replace(/["\\]/g, '')}", charset="UTF-8"`);
      sendText(res, 401, error.message);
    } else if (error instanceof NotFoundError) {
      sendText(res, 404, 'repository not found');
    } else if (error instanceof PermissionDeniedError || error instanceof NotOrganizationMemberError) {
      sendText(res, 403, error.message);
    } else if (error instanceof SpecbaseError) {
      sendText(res, 400, error.message);
    } else {
      next(error);
    }
  };
}

/** A refusal sent before the request body was read closes the connection: the body is not waited for. */
export function sendText(res: Parameters<ErrorRequestHandler>[2], status: number, text: string): void {
  if (!res.req.complete) res.set('Connection', 'close');
  res.status(status).type('text/plain; charset=utf-8').set('Cache-Control', 'no-cache').send(`${text}\n`);
}
