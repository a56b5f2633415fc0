import type { Request, RequestHandler } from 'express';
import type { Config } from '../config/index.js';
import { UnauthorizedError } from '../errors.js';
import { sendHttpError } from './http-error.js';
import type { AuthenticatedUser, VerifyAccessToken } from './types.js';

/** The path of a route without its query; message endpoints are described by their SSE route. */
const resourcePath = (req: Request): string => req.originalUrl.split('?')[0]!.replace(/\/messages$/, '/sse');

/**
 * Bearer authentication of every MCP request. A failure is 401 with the RFC 9728 challenge
 * that tells an MCP client where to start OAuth.
 */
export function authenticate(config: Pick<Config, 'baseUrl'>, verify: VerifyAccessToken): RequestHandler {
  const base = new URL(config.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  return async (req, res, next) => {
    const path = `${basePath}${resourcePath(req)}`;
    const challenge = (error?: string) =>
      `Bearer ${error ? `error="${error}", ` : ''}resource_metadata="${base.origin}/.well-known/oauth-protected-resource${path}"`;
    const header = req.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) {
      sendHttpError(res, new UnauthorizedError('authorization required: send Authorization: Bearer <token>'), {
        'WWW-Authenticate': challenge(),
      });
      return;
    }
    let user: AuthenticatedUser | undefined;
    try {
      user = await verify(match[1]!, new URL(path, base.origin));
    } catch (error) {
      next(error);
      return;
    }
    if (!user || (user.expiresAt !== undefined && user.expiresAt * 1000 <= Date.now())) {
      sendHttpError(res, new UnauthorizedError('the access token is invalid or expired; authorize again'), {
        'WWW-Authenticate': challenge('invalid_token'),
      });
      return;
    }
    res.locals.user = user;
    next();
  };
}
