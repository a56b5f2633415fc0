import type { ErrorRequestHandler } from 'express';
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  PatchError,
  PayloadTooLargeError,
  PermissionDeniedError,
  type SpecbaseError,
} from '../errors.js';
import { sendHtml } from './context.js';
import { html } from './html.js';
import { layout } from './views/layout.js';

const STATUS: ReadonlyArray<[abstract new (...args: never[]) => SpecbaseError, number, string]> = [
  [NotFoundError, 404, 'Not found'],
  [PermissionDeniedError, 403, 'Not allowed'],
  [ConflictError, 409, 'Conflict'],
  [PatchError, 409, 'Conflict'],
  [InvalidInputError, 400, 'Cannot do that'],
  [PayloadTooLargeError, 413, 'Too large'],
];

export function errorPageFor(status: number, heading: string, message: string, user?: Express.Request['user']) {
  return layout(
    { title: heading, ...(user ? { user } : {}) },
    html`<section class="error-page">
  <p class="status">${status}</p>
  <h1>${heading}</h1>
  <p class="message" role="alert">${message}</p>
  <p><a href="/">Go to your organizations</a></p>
</section>`,
  );
}

/** The one place where typed errors become status pages; anything else goes on to the app's last resort. */
export const webErrors: ErrorRequestHandler = (error, req, res, next) => {
  const match = STATUS.find(([type]) => error instanceof type);
  if (!match || res.headersSent) return next(error);
  const [, status, heading] = match;
  const message = error instanceof NotFoundError ? capitalize((error as Error).message) : (error as Error).message;
  sendHtml(res, errorPageFor(status, heading, message, req.user), status);
};

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
