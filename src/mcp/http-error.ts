import type { Response } from 'express';
import {
  InvalidInputError,
  InvalidOrganizationIdError,
  LimitExceededError,
  NotFoundError,
  NotOrganizationMemberError,
  OrganizationHeaderMissingError,
  PayloadTooLargeError,
  PermissionDeniedError,
  SpecbaseError,
  UnauthorizedError,
} from '../errors.js';

const STATUS: readonly [new (...args: never[]) => SpecbaseError, number][] = [
  [UnauthorizedError, 401],
  [OrganizationHeaderMissingError, 400],
  [InvalidOrganizationIdError, 400],
  [InvalidInputError, 400],
  [NotOrganizationMemberError, 403],
  [PermissionDeniedError, 403],
  [NotFoundError, 404],
  [PayloadTooLargeError, 413],
  [LimitExceededError, 429],
];

/** The one place an MCP route turns a typed error into an HTTP answer, before MCP is spoken. */
export function sendHttpError(res: Response, error: SpecbaseError, headers: Record<string, string> = {}): void {
  const status = STATUS.find(([type]) => error instanceof type)?.[1] ?? 500;
  const retryAfterSeconds = error instanceof LimitExceededError ? error.retryAfterSeconds : undefined;
  if (retryAfterSeconds !== undefined) headers = { 'Retry-After': String(retryAfterSeconds), ...headers };
  res
    .status(status)
    .set(headers)
    .json({ error: error.code, message: error.message, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) });
}
