import type { Request } from 'express';
import type { Principal } from '../access/principal.js';
import type { ControlPlane } from '../control/types.js';
import { CredentialBlockedError, NotFoundError, NotOrganizationMemberError, PermissionDeniedError } from '../errors.js';
import { isUuid } from '../ids.js';
import { markAuthenticated } from '../limits/index.js';
import { authenticateGitRequest } from './authenticate-git-request.js';
import { authorizeClone } from './authorize-clone.js';
import { recordGitAudit } from './record-git-audit.js';

export interface GitHttpDeps {
  readonly control: ControlPlane;
  gitdirOf(orgId: string): string;
  /** Shown by git when it asks for credentials; "Specbase" unless set. */
  readonly realm?: string;
}

export interface AdmittedRequest {
  readonly orgId: string;
  readonly gitdir: string;
  readonly principal: Principal;
}

/**
 * Who may read `/{orgId}.git`: a malformed name is "not found" before anything else; then the
 * token (401), then the organization and repository (404), then membership (404 as well, so
 * that an organization's existence is not revealed to outsiders; audited), read access to
 * every workspace, and a token its admins have not blocked there (403, audited).
 */
export async function admitGitRequest(deps: GitHttpDeps, req: Request): Promise<AdmittedRequest> {
  const orgId = orgIdOfRepository(String(req.params.repo ?? ''));
  const { user, token } = await authenticateGitRequest(deps.control, req.get('authorization'));
  markAuthenticated(req);
  const gitdir = deps.gitdirOf(orgId);
  try {
    const principal = await authorizeClone({ control: deps.control, user, orgId, gitdir });
    if (!(await deps.control.credentialOrgs.admit({ kind: 'token', id: token.id }, orgId)))
      throw new CredentialBlockedError('token');
    return { orgId, gitdir, principal };
  } catch (error) {
    if (error instanceof PermissionDeniedError || error instanceof NotOrganizationMemberError) {
      await recordGitAudit(deps.control, {
        userId: user.id,
        orgId,
        action: 'access',
        client: req.get('user-agent'),
        outcome: 'error',
        detail: error.message,
      });
    }
    if (error instanceof NotOrganizationMemberError) throw new NotFoundError('repository');
    throw error;
  }
}

function orgIdOfRepository(name: string): string {
  const orgId = name.endsWith('.git') ? name.slice(0, -'.git'.length) : '';
  if (!isUuid(orgId)) throw new NotFoundError('repository');
  return orgId.toLowerCase();
}
