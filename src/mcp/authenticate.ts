import type { IncomingMessage, ServerResponse } from 'node:http';
import { boundedMemo } from '../bounded-memo.js';
import type { Config } from '../config/index.js';
import { UnauthorizedError } from '../errors.js';
import { sendHttpError } from './http-error.js';
import type { McpRoute } from './routes.js';
import type { AuthenticatedUser, VerifyAccessToken } from './types.js';

/** Resource URLs remembered at most (one per organization in a path). */
const MAX_KNOWN_RESOURCES = 1_000;

/** Message endpoints are described by their SSE route. */
const resourcePath = (route: McpRoute): string => route.path.replace(/\/messages$/, '/sse');

/**
 * Bearer authentication of every MCP request: the user, or undefined once a 401 with the
 * RFC 9728 challenge (that tells an MCP client where to start OAuth) is answered.
 */
export function authenticate(
  config: Pick<Config, 'baseUrl'>,
  verify: VerifyAccessToken,
): (req: IncomingMessage, res: ServerResponse, route: McpRoute) => Promise<AuthenticatedUser | undefined> {
  const base = new URL(config.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  // Parsed once per route: a URL costs more than the rest of a token check.
  const resourceOf = boundedMemo(MAX_KNOWN_RESOURCES, (path: string) => new URL(path, base.origin));
  return async (req, res, route) => {
    const path = `${basePath}${resourcePath(route)}`;
    const challenge = (error?: string) =>
      `Bearer ${error ? `error="${error}", ` : ''}resource_metadata="${base.origin}/.well-known/oauth-protected-resource${path}"`;
    const header = req.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) {
      sendHttpError(res, new UnauthorizedError('authorization required: send Authorization: Bearer <token>'), {
        'WWW-Authenticate': challenge(),
      });
      return undefined;
    }
    const user = await verify(match[1]!, resourceOf(path));
    if (!user || (user.expiresAt !== undefined && user.expiresAt * 1000 <= Date.now())) {
      sendHttpError(res, new UnauthorizedError('the access token is invalid or expired; authorize again'), {
        'WWW-Authenticate': challenge('invalid_token'),
      });
      return undefined;
    }
    return user;
  };
}
