import type { ErrorRequestHandler, Response } from 'express';
import { storageFailureOf, type StorageUnavailableError } from '../errors.js';
import { escapeHtml, sendPage } from './html.js';

export const CANNOT_SIGN_IN = 'Cannot sign in now';

/** The page's body for a sign-in step whose write the disk refused: the sentence the rest of the service says. */
export const storageFailureBody = (failure: StorageUnavailableError): string => `<p>${escapeHtml(failure.message)}</p>`;

export function sendStorageFailure(res: Response, failure: StorageUnavailableError): void {
  sendPage(res, CANNOT_SIGN_IN, storageFailureBody(failure), 503);
}

/**
 * The last handler of the sign-in and OAuth routes: a storage failure (the control database on
 * a read-only or full disk) becomes a 503 page that says so; any other error goes on.
 */
export const authStorageErrors: ErrorRequestHandler = (error, _req, res, next) => {
  const failure = storageFailureOf(error);
  if (!failure || res.headersSent) return next(error);
  sendStorageFailure(res, failure);
};
