import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { RequestHandler } from 'express';
import type { ControlPlane } from '../control/types.js';
import {
  InvalidOrganizationIdError,
  NotOrganizationMemberError,
  OrganizationHeaderMissingError,
  type SpecbaseError,
} from '../errors.js';
import { isUuid } from '../ids.js';
import { sendHttpError } from './http-error.js';
import type { AuthenticatedUser, RequestScope } from './types.js';

export const ORG_HEADER = 'x-organization-id';

/**
 * The organization a request acts in: from the path (`/o/{orgId}/…`) or the X-Organization-Id
 * header. The caller must be a member; the principal (with current roles) rides along to the tools.
 */
export function resolveOrganization(control: Pick<ControlPlane, 'members'>): RequestHandler {
  return async (req, res, next) => {
    const fromPath = typeof req.params.orgId === 'string' ? req.params.orgId : undefined;
    const fromHeader = req.headers[ORG_HEADER];
    const raw = fromPath ?? (Array.isArray(fromHeader) ? fromHeader[0] : fromHeader);
    const reject = (error: SpecbaseError) => sendHttpError(res, error);
    if (raw === undefined || raw.trim() === '') return reject(new OrganizationHeaderMissingError());
    const orgId = raw.trim();
    if (!isUuid(orgId)) return reject(new InvalidOrganizationIdError(orgId));
    const user = res.locals.user as AuthenticatedUser;
    try {
      const principal = await control.members.principal(orgId.toLowerCase(), user.userId);
      if (!principal) return reject(new NotOrganizationMemberError());
      const scope: RequestScope = { user, orgId: principal.orgId };
      res.locals.scope = scope;
      // The transports hand `req.auth` to the tool handlers: the principal of this very request.
      const auth: AuthInfo = {
        token: '',
        clientId: user.clientId,
        scopes: user.scopes,
        ...(user.expiresAt !== undefined ? { expiresAt: user.expiresAt } : {}),
        extra: { principal },
      };
      (req as typeof req & { auth?: AuthInfo }).auth = auth;
      next();
    } catch (error) {
      next(error);
    }
  };
}
