import { isOrganizationAdmin } from '../../access/index.js';
import type { GrantAdmin } from '../../auth/types.js';
import type { ControlPlane } from '../../control/types.js';
import { NotFoundError } from '../../errors.js';
import type { OrgContext } from '../context.js';
import type { MemberConnections } from '../views/connections.js';

export interface ConnectionsDeps {
  readonly control: ControlPlane;
  readonly grants: GrantAdmin;
}

/** The other members whose connections this user may see and cut: all of them for an admin, else none. */
async function managedMembers(deps: ConnectionsDeps, ctx: OrgContext) {
  const workspaces = await deps.control.workspaces.list(ctx.org.id);
  if (!isOrganizationAdmin(ctx.principal, workspaces.map((w) => w.id))) return undefined;
  return (await deps.control.members.list(ctx.org.id)).map((m) => m.user).filter((user) => user.id !== ctx.user.id);
}

/** What the Connect page shows about connections: the user's own grants, and members' for an admin. */
export async function loadConnections(deps: ConnectionsDeps, ctx: OrgContext) {
  const grants = await deps.grants.list([ctx.user.id]);
  const users = await managedMembers(deps, ctx);
  if (!users) return { grants };
  const memberGrants = await deps.grants.list(users.map((u) => u.id));
  const members: MemberConnections[] = [];
  for (const user of users) {
    const tokens = (await deps.control.tokens.list(user.id)).filter((t) => !t.revokedAt);
    const own = memberGrants.filter((g) => g.userId === user.id);
    if (tokens.length > 0 || own.length > 0) members.push({ user, grants: own, tokens });
  }
  return { grants, members };
}

/** Revokes a grant of the user, or, for an admin, of another member; unknown ones are "not found". */
export async function revokeGrant(deps: ConnectionsDeps, ctx: OrgContext, grantId: string): Promise<void> {
  const members = (await managedMembers(deps, ctx)) ?? [];
  if (!(await deps.grants.revoke(grantId, [ctx.user.id, ...members.map((u) => u.id)]))) throw new NotFoundError('connection');
}

/** Revokes a personal access token of the user, or, for an admin, of another member. */
export async function revokeToken(deps: ConnectionsDeps, ctx: OrgContext, tokenId: string): Promise<void> {
  if (await deps.control.tokens.revoke(tokenId, ctx.user.id)) return;
  for (const user of (await managedMembers(deps, ctx)) ?? []) {
    if ((await deps.control.tokens.list(user.id)).some((t) => t.id === tokenId)) {
      if (await deps.control.tokens.revoke(tokenId, user.id)) return;
    }
  }
  throw new NotFoundError('token');
}
