import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { ControlPlane } from '../control/types.js';
import {
  CredentialBlockedError,
  InvalidInputError,
  InvalidOrganizationIdError,
  NotOrganizationMemberError,
  OrganizationHeaderMissingError,
  type SpecbaseError,
} from '../errors.js';
import { isUuid } from '../ids.js';
import type { Connection, ToolCatalog } from '../tools/index.js';
import { connectionOf } from './connection.js';
import { sendHttpError } from './http-error.js';
import type { McpRoute } from './routes.js';
import type { AuthenticatedUser, RequestScope } from './types.js';

export const ORG_HEADER = 'x-organization-id';

/** What the MCP transports hand to the tool handlers as `authInfo`. */
export type AuthenticatedRequest = IncomingMessage & { auth?: AuthInfo };

/**
 * The organization a request acts in: from the path (`/o/{orgId}/…`) or the X-Organization-Id
 * header. The caller must be a member, and the token or grant not blocked there by the
 * organization's admins; the principal (with current roles) and what the connection may use
 * ride along to the tools on `req.auth`. Undefined once the refusal is answered.
 */
export function resolveOrganization(
  control: Pick<ControlPlane, 'members' | 'credentialOrgs'>,
  catalog: ToolCatalog,
): (
  req: AuthenticatedRequest,
  res: ServerResponse,
  route: McpRoute,
  user: AuthenticatedUser,
) => Promise<RequestScope | undefined> {
  return async (req, res, route, user) => {
    const fromHeader = req.headers[ORG_HEADER];
    const raw = route.orgIdInPath ?? (Array.isArray(fromHeader) ? fromHeader[0] : fromHeader);
    const reject = (error: SpecbaseError) => {
      sendHttpError(res, error);
      return undefined;
    };
    if (raw === undefined || raw.trim() === '') return reject(new OrganizationHeaderMissingError());
    const orgId = raw.trim();
    if (!isUuid(orgId)) return reject(new InvalidOrganizationIdError(orgId));
    const principal = await control.members.principal(orgId.toLowerCase(), user.userId);
    if (!principal) return reject(new NotOrganizationMemberError());
    if (!(await control.credentialOrgs.admit(user.credential, principal.orgId)))
      return reject(new CredentialBlockedError(user.credential.kind));
    let connection: Connection;
    try {
      connection = connectionOf(catalog, req, route, user);
    } catch (error) {
      if (error instanceof InvalidInputError) return reject(error);
      throw error;
    }
    // The transports hand `req.auth` to the tool handlers: the principal of this very request.
    req.auth = {
      token: '',
      clientId: user.clientId,
      scopes: user.scopes,
      ...(user.expiresAt !== undefined ? { expiresAt: user.expiresAt } : {}),
      extra: { principal, connection },
    };
    return { user, orgId: principal.orgId, connection };
  };
}
