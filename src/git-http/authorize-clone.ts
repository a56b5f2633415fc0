import { existsSync } from 'node:fs';
import { canReadAll } from '../access/index.js';
import type { Principal } from '../access/principal.js';
import type { ControlPlane, User } from '../control/types.js';
import { NotFoundError, NotOrganizationMemberError, PermissionDeniedError } from '../errors.js';

/**
 * A clone carries every workspace's files, so only a member who can read all workspaces of
 * the organization may take one. Unknown organizations and missing repositories are alike
 * "not found".
 */
export async function authorizeClone(input: {
  control: ControlPlane;
  user: User;
  orgId: string;
  gitdir: string;
}): Promise<Principal> {
  const { control, user, orgId, gitdir } = input;
  // Asked together, judged in order: each is answered from memory until the database changes,
  // else by a round trip to its read thread. The repository is looked for in place: as a promise
  // it was a thread pool round trip.
  const [org, principal, workspaces] = await Promise.all([
    control.orgs.get(orgId),
    control.members.principal(orgId, user.id),
    control.workspaces.list(orgId),
  ]);
  if (!org || !existsSync(gitdir)) throw new NotFoundError('repository');
  if (!principal) throw new NotOrganizationMemberError();
  if (
    !canReadAll(
      principal,
      workspaces.map((w) => w.id),
    )
  ) {
    throw new PermissionDeniedError(
      'cloning needs read access to every workspace of this organization; ask an organization owner for access to all workspaces',
    );
  }
  return principal;
}
