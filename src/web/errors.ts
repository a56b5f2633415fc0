import type { ErrorRequestHandler } from 'express';
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  NotYetError,
  PatchError,
  PayloadTooLargeError,
  PermissionDeniedError,
  StorageUnavailableError,
  storageFailureOf,
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
  [StorageUnavailableError, 503, 'Cannot save now'],
  [NotYetError, 503, 'Not yet'],
];

/** A form body over its parser's limit (express's body parsers say so with this type and 413). */
const tooLargeForm = (error: unknown): error is { limit?: number } =>
  (error as { type?: unknown } | undefined)?.type === 'entity.too.large';

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
  if (res.headersSent) return next(error);
  if (tooLargeForm(error)) {
    const limit = typeof error.limit === 'number' ? ` (at most ${Math.floor(error.limit / 1024)} KiB)` : '';
    const message = `What you sent is larger than this form accepts${limit}. Nothing was written; shorten it and try again.`;
    return sendHtml(res, errorPageFor(413, 'Too large', message, req.user), 413);
  }
  const typed = STATUS.some(([type]) => error instanceof type) ? (error as SpecbaseError) : storageFailureOf(error);
  const match = typed && STATUS.find(([type]) => typed instanceof type);
  if (!typed || !match) return next(error);
  const [, status, heading] = match;
  const message = typed instanceof NotFoundError ? capitalize(typed.message) : typed.message;
  sendHtml(res, errorPageFor(status, heading, message, req.user), status);
};

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
