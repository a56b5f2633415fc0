import type { ControlPlane, PersonalAccessToken, User } from '../control/types.js';
import { UnauthorizedError } from '../errors.js';

/**
 * The secret a git client sends: the password of HTTP Basic (any user name; a lone user name
 * is taken as the secret, as in `https://<token>@host/...`), or a Bearer token.
 */
export function tokenFromAuthorization(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, credentials] = header.trim().split(/\s+/, 2);
  if (!scheme || !credentials) return undefined;
  if (/^bearer$/i.test(scheme)) return credentials;
  if (!/^basic$/i.test(scheme)) return undefined;
  const decoded = Buffer.from(credentials, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return decoded || undefined;
  return decoded.slice(colon + 1) || decoded.slice(0, colon) || undefined;
}

/** The token and the user it belongs to; UnauthorizedError when missing, invalid, expired or revoked. */
export async function authenticateGitRequest(
  control: ControlPlane,
  authorization: string | undefined,
): Promise<{ user: User; token: PersonalAccessToken }> {
  const secret = tokenFromAuthorization(authorization);
  if (!secret) {
    throw new UnauthorizedError('authentication required: use a personal access token as the password');
  }
  const verified = await control.tokens.verify(secret);
  if (!verified) {
    throw new UnauthorizedError('invalid, expired or revoked personal access token');
  }
  return verified;
}
