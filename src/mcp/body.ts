import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { PayloadTooLargeError } from '../errors.js';
import { sendHttpError, sendJson, sendJsonRpcError } from './http-error.js';

/** What body-parser's errors carry besides their message. */
interface BodyError {
  readonly type?: string;
  readonly status?: number;
  readonly expose?: boolean;
  readonly limit?: number;
  readonly length?: number;
}

export type JsonBody = { readonly body: unknown };

/**
 * Reads a JSON request body of at most `limitBytes` (body-parser: charsets, compression and
 * limits as express reads them). Resolves to the body (undefined when it is not JSON; the MCP
 * transport answers that), or to undefined once a refusal is answered: 413 over the limit, a
 * JSON-RPC parse error for malformed JSON, the parser's own 4xx otherwise.
 */
export function jsonBodyReader(
  limitBytes: number,
): (req: IncomingMessage, res: ServerResponse) => Promise<JsonBody | undefined> {
  const parse = express.json({ limit: limitBytes });
  return (req, res) =>
    new Promise((resolve, reject) => {
      parse(req, res, (error?: unknown) => {
        if (!error) return resolve({ body: (req as IncomingMessage & { body?: unknown }).body });
        const { type, status, expose, limit, length } = error as BodyError;
        if (type === 'entity.too.large') {
          sendHttpError(res, new PayloadTooLargeError('the request body', limit ?? limitBytes, length ?? 0));
        } else if (type === 'entity.parse.failed') {
          sendJsonRpcError(res, 400, { code: -32700, message: 'Parse error: the body is not JSON' });
        } else if (expose && status !== undefined && status >= 400 && status < 500) {
          sendJson(res, status, { error: 'bad_request', message: (error as Error).message });
        } else {
          return reject(error);
        }
        resolve(undefined);
      });
    });
}
