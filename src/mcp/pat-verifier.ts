import type { ControlPlane } from '../control/types.js';
import type { VerifyAccessToken } from './types.js';

/**
 * Personal access tokens (`sbp_…`) as MCP bearer tokens. They belong to a user, not to one
 * resource, so the resource is not checked; expiry and revocation are the control plane's.
 */
export function patVerifier(control: Pick<ControlPlane, 'tokens'>): VerifyAccessToken {
  return async (token) => {
    const verified = await control.tokens.verify(token);
    if (!verified) return undefined;
    const { user, token: pat } = verified;
    return {
      userId: user.id,
      clientId: `pat:${pat.id}`,
      scopes: ['mcp'],
      ...(pat.expiresAt ? { expiresAt: Math.floor(Date.parse(pat.expiresAt) / 1000) } : {}),
      via: 'pat',
      credential: { kind: 'token', id: pat.id },
      ...(pat.readOnly ? { readOnly: true } : {}),
    };
  };
}
