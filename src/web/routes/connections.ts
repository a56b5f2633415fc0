import { isOrganizationAdmin } from '../../access/index.js';
import type { GrantAdmin } from '../../auth/types.js';
import type { ControlPlane, CredentialRef, User } from '../../control/types.js';
import { NotFoundError } from '../../errors.js';
import type { OrgContext } from '../context.js';
import type { MemberConnection, MemberConnections } from '../views/connections.js';

export interface ConnectionsDeps {
  readonly control: ControlPlane;
  readonly grants: GrantAdmin;
}

const key = (credential: CredentialRef) => `${credential.kind}:${credential.id}`;
const liveToken = (t: { revokedAt: string | null; expiresAt: string | null }) =>
  !t.revokedAt && !(t.expiresAt && Date.parse(t.expiresAt) <= Date.now());

/** The other members an organization admin acts for, or undefined for anyone else. */
async function managedMembers(deps: ConnectionsDeps, ctx: OrgContext): Promise<User[] | undefined> {
  const workspaces = await deps.control.workspaces.list(ctx.org.id);
  if (
    !isOrganizationAdmin(
      ctx.principal,
      workspaces.map((w) => w.id),
    )
  )
    return undefined;
  return (await deps.control.members.list(ctx.org.id)).map((m) => m.user).filter((user) => user.id !== ctx.user.id);
}

/** Every live token and grant of these members, by credential key: names only, never what they did elsewhere. */
async function membersCredentials(deps: ConnectionsDeps, users: readonly User[]) {
  const found = new Map<string, { user: User; connection: Omit<MemberConnection, 'lastUsedAt' | 'blockedAt'> }>();
  for (const user of users) {
    for (const token of (await deps.control.tokens.list(user.id)).filter(liveToken)) {
      found.set(key({ kind: 'token', id: token.id }), {
        user,
        connection: { kind: 'token', id: token.id, name: token.name, host: null },
      });
    }
  }
  const byId = new Map(users.map((user) => [user.id, user]));
  for (const grant of await deps.grants.list(users.map((u) => u.id))) {
    const user = byId.get(grant.userId)!;
    found.set(key({ kind: 'grant', id: grant.id }), {
      user,
      connection: { kind: 'grant', id: grant.id, name: grant.clientName, host: grant.redirectHost },
    });
  }
  return found;
}

/**
 * What the Connect page shows about connections: the user's own grants, which of their own
 * credentials this organization blocked, and for an organization admin the members' tokens and
 * assistants as used in this organization (last use here, blocked here), nothing more.
 */
export async function loadConnections(deps: ConnectionsDeps, ctx: OrgContext) {
  const [grants, standing] = await Promise.all([
    deps.grants.list([ctx.user.id]),
    deps.control.credentialOrgs.list(ctx.org.id),
  ]);
  const blockedHere = new Set(standing.filter((s) => s.blockedAt).map(key));
  const users = await managedMembers(deps, ctx);
  if (!users) return { grants, blockedHere };
  const credentials = await membersCredentials(deps, users);
  const members = new Map<string, MemberConnections>();
  for (const here of standing) {
    const found = credentials.get(key(here));
    if (!found) continue;
    const entry = members.get(found.user.id) ?? { user: found.user, connections: [] };
    members.set(found.user.id, {
      ...entry,
      connections: [
        ...entry.connections,
        { ...found.connection, lastUsedAt: here.lastUsedAt, blockedAt: here.blockedAt },
      ],
    });
  }
  return { grants, blockedHere, members: [...members.values()] };
}

/** Revokes one of the user's own grants, everywhere; anyone else's is "not found". */
export async function revokeGrant(deps: ConnectionsDeps, ctx: OrgContext, grantId: string): Promise<void> {
  if (!(await deps.grants.revoke(grantId, [ctx.user.id]))) throw new NotFoundError('connection');
  await record(deps, ctx, null, 'grant.revoke', `revoked their own assistant authorization ${grantId} everywhere`);
}

/** Revokes one of the user's own personal access tokens, everywhere. */
export async function revokeToken(deps: ConnectionsDeps, ctx: OrgContext, tokenId: string): Promise<void> {
  if (!(await deps.control.tokens.revoke(tokenId, ctx.user.id))) throw new NotFoundError('token');
  await record(deps, ctx, null, 'token.revoke', `revoked their own personal access token ${tokenId} everywhere`);
}

/**
 * An organization admin blocks (or unblocks) a member's token or assistant in this organization
 * only; the credential stays its user's. Audited. A credential of no other member is "not found".
 */
export async function setBlocked(
  deps: ConnectionsDeps,
  ctx: OrgContext,
  credential: CredentialRef,
  blocked: boolean,
): Promise<void> {
  const users = await managedMembers(deps, ctx);
  const found = users && (await membersCredentials(deps, users)).get(key(credential));
  if (!found) throw new NotFoundError('connection');
  const changed = blocked
    ? await deps.control.credentialOrgs.block(credential, ctx.org.id, ctx.user.id)
    : await deps.control.credentialOrgs.unblock(credential, ctx.org.id);
  if (!changed) return;
  const what = credential.kind === 'token' ? 'personal access token' : 'assistant';
  await record(
    deps,
    ctx,
    ctx.org.id,
    `${credential.kind}.${blocked ? 'block' : 'unblock'}`,
    `${blocked ? 'blocked' : 'unblocked'} in this organization the ${what} “${found.connection.name}” (${credential.id}) of ${found.user.email}`,
  );
}

async function record(
  deps: ConnectionsDeps,
  ctx: OrgContext,
  orgId: string | null,
  action: string,
  detail: string,
): Promise<void> {
  await deps.control.audit.record({
    kind: 'web',
    userId: ctx.user.id,
    orgId,
    action,
    artifactId: null,
    commit: null,
    client: 'web',
    durationMs: null,
    outcome: 'ok',
    detail,
  });
}
