import type { ServerResponse } from 'node:http';
import {
  InvalidInputError,
  InvalidOrganizationIdError,
  LimitExceededError,
  NotFoundError,
  NotOrganizationMemberError,
  OrganizationHeaderMissingError,
  PayloadTooLargeError,
  PermissionDeniedError,
  type SpecbaseError,
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

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res
    .writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(text)),
      ...headers,
    })
    .end(text);
}

/** A JSON-RPC error answered before the MCP transport sees the request (code -32000 unless given). */
export function sendJsonRpcError(
  res: ServerResponse,
  status: number,
  error: { readonly message: string; readonly code?: number; readonly data?: unknown },
  options: { readonly id?: string | number | null; readonly headers?: Record<string, string> } = {},
): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code: -32000, ...error }, id: options.id ?? null }, options.headers);
}

/** The one place an MCP route turns a typed error into an HTTP answer, before MCP is spoken. */
export function sendHttpError(res: ServerResponse, error: SpecbaseError, headers: Record<string, string> = {}): void {
  const status = STATUS.find(([type]) => error instanceof type)?.[1] ?? 500;
  const retryAfterSeconds = error instanceof LimitExceededError ? error.retryAfterSeconds : undefined;
  if (retryAfterSeconds !== undefined) headers = { 'Retry-After': String(retryAfterSeconds), ...headers };
  sendJson(
    res,
    status,
    { error: error.code, message: error.message, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) },
    headers,
  );
}
