import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config/index.js';
import { PermissionDeniedError } from '../errors.js';
import { sendHttpError } from './http-error.js';

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** Origins a browser page may call us from: our own public origin and loopback on our port. */
export function allowedOrigins(config: Pick<Config, 'baseUrl' | 'port'>): ReadonlySet<string> {
  const origins = new Set([new URL(config.baseUrl).origin]);
  for (const scheme of ['http', 'https']) {
    for (const host of LOOPBACK_HOSTS) origins.add(`${scheme}://${host}:${config.port}`);
  }
  return origins;
}

/**
 * DNS rebinding protection: a page on a foreign origin must never drive the MCP endpoints with
 * a browser's network position. Clients that are not browsers send no Origin at all. False once
 * the refusal is answered.
 */
export function checkOrigin(
  config: Pick<Config, 'baseUrl' | 'port'>,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const allowed = allowedOrigins(config);
  return (req, res) => {
    const origin = req.headers.origin;
    if (origin === undefined || allowed.has(origin)) return true;
    sendHttpError(res, new PermissionDeniedError(`requests from origin ${origin.slice(0, 200)} are not allowed`));
    return false;
  };
}
