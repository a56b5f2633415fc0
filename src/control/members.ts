import type { Principal, WorkspaceRole } from '../access/principal.js';
import { isWorkspaceRole, WORKSPACE_ROLES } from '../access/roles.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors.js';
import type { Clock } from './clock.js';
import { USER_COLUMNS, toUser, type UserRow } from './rows.js';
import type { SqlDatabase, SqlQueries } from './sql/types.js';
import type { ControlPlane, MemberSummary } from './types.js';

interface RoleRow {
  user_id: string;
  workspace_id: string;
  role: WorkspaceRole;
}

const ORG_EXISTS = 'SELECT 1 FROM organizations WHERE id = ?';
const USER_ROW = `SELECT ${USER_COLUMNS} FROM users u WHERE u.id = ?`;
const WORKSPACE_ORG = 'SELECT org_id FROM workspaces WHERE id = ?';
const SET_OWNER = `INSERT INTO memberships (org_id, user_id, is_owner, created_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (org_id, user_id) DO UPDATE SET is_owner = excluded.is_owner`;
const ENSURE_MEMBERSHIP =
  'INSERT INTO memberships (org_id, user_id, is_owner, created_at) VALUES (?, ?, 0, ?) ON CONFLICT DO NOTHING';
const GRANT = `INSERT INTO workspace_roles (workspace_id, user_id, role, granted_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = excluded.role, granted_at = excluded.granted_at`;
const REVOKE = 'DELETE FROM workspace_roles WHERE workspace_id = ? AND user_id = ?';
const REVOKE_ALL = `DELETE FROM workspace_roles WHERE user_id = ?
  AND workspace_id IN (SELECT id FROM workspaces WHERE org_id = ?)`;
const LEAVE = 'DELETE FROM memberships WHERE org_id = ? AND user_id = ?';
const OWNERS = 'SELECT user_id FROM memberships WHERE org_id = ? AND is_owner = 1';
// One round trip for the user, the organization's existence, the owner flag and the roles (a
// row per role, or one row without a role): this runs on every authenticated call.
const PRINCIPAL_ROWS = `SELECT ${USER_COLUMNS}, COALESCE(m.is_owner, 0) AS is_owner, r.workspace_id, r.role FROM users u
  JOIN organizations o ON o.id = ?
  LEFT JOIN memberships m ON m.org_id = o.id AND m.user_id = u.id
  LEFT JOIN (workspace_roles r JOIN workspaces w ON w.id = r.workspace_id) ON w.org_id = o.id AND r.user_id = u.id
  WHERE u.id = ?
  ORDER BY w.is_default DESC, w.created_at, w.rowid`;
const MEMBER_ROWS = `SELECT ${USER_COLUMNS}, COALESCE(m.is_owner, 0) AS is_owner FROM users u
  LEFT JOIN memberships m ON m.user_id = u.id AND m.org_id = ?
  WHERE m.is_owner = 1
     OR EXISTS (SELECT 1 FROM workspace_roles r JOIN workspaces w ON w.id = r.workspace_id
                WHERE w.org_id = ? AND r.user_id = u.id)
  ORDER BY u.email, u.created_at`;
const ROLES_IN_ORG = `SELECT r.user_id, r.workspace_id, r.role FROM workspace_roles r JOIN workspaces w ON w.id = r.workspace_id
  WHERE w.org_id = ? ORDER BY w.is_default DESC, w.created_at, w.rowid`;

async function requireOrgAndUser(q: SqlQueries, orgId: string, userId: string): Promise<void> {
  if (!(await q.get(ORG_EXISTS, [orgId]))) throw new NotFoundError('organization');
  if (!(await q.get(USER_ROW, [userId]))) throw new NotFoundError('user');
}

/** An organization always keeps an owner: the one who could otherwise never be replaced. */
async function keepAnOwner(q: SqlQueries, orgId: string, leavingUserId: string): Promise<void> {
  const owners = await q.all<{ user_id: string }>(OWNERS, [orgId]);
  if (owners.length === 1 && owners[0]!.user_id === leavingUserId) {
    throw new ConflictError('the last owner of an organization cannot be removed: make someone else an owner first');
  }
}

async function requireWorkspaceOf(q: SqlQueries, orgId: string, workspaceId: string): Promise<void> {
  const workspace = await q.get<{ org_id: string }>(WORKSPACE_ORG, [workspaceId]);
  if (!workspace) throw new NotFoundError('workspace');
  if (workspace.org_id !== orgId) throw new InvalidInputError('the workspace belongs to another organization');
}

/**
 * A member of an organization is its owner or holds a role in at least one of its
 * workspaces; a membership row alone (left after the last role is revoked) makes no member.
 * `perRequest` answers the principal's read, made on every call (see readsUntilChange).
 */
export function sqlMembers(
  db: SqlDatabase,
  clock: Clock,
  perRequest: Pick<SqlQueries, 'all'>,
): ControlPlane['members'] {
  return {
    async setOwner(orgId, userId, owner) {
      await db.transaction(async (tx) => {
        await requireOrgAndUser(tx, orgId, userId);
        if (!owner) await keepAnOwner(tx, orgId, userId);
        await tx.run(SET_OWNER, [orgId, userId, owner ? 1 : 0, clock().toISOString()]);
      });
    },
    async remove({ orgId, userId }) {
      await db.transaction(async (tx) => {
        await requireOrgAndUser(tx, orgId, userId);
        await keepAnOwner(tx, orgId, userId);
        await tx.run(REVOKE_ALL, [userId, orgId]);
        await tx.run(LEAVE, [orgId, userId]);
      });
    },
    async grant({ orgId, userId, workspaceId, role }) {
      if (!isWorkspaceRole(role)) throw new InvalidInputError(`role must be one of ${WORKSPACE_ROLES.join(', ')}`);
      const at = clock().toISOString();
      await db.transaction(async (tx) => {
        await requireOrgAndUser(tx, orgId, userId);
        await requireWorkspaceOf(tx, orgId, workspaceId);
        await tx.run(ENSURE_MEMBERSHIP, [orgId, userId, at]);
        await tx.run(GRANT, [workspaceId, userId, role, at]);
      });
    },
    async revoke({ orgId, userId, workspaceId }) {
      await requireOrgAndUser(db, orgId, userId);
      await requireWorkspaceOf(db, orgId, workspaceId);
      await db.run(REVOKE, [workspaceId, userId]);
    },
    async principal(orgId, userId): Promise<Principal | undefined> {
      const rows = await perRequest.all<
        UserRow & { is_owner: number; workspace_id: string | null; role: WorkspaceRole | null }
      >(PRINCIPAL_ROWS, [orgId, userId]);
      const user = rows[0];
      if (!user) return undefined;
      const owner = user.is_owner === 1;
      const roles = new Map<string, WorkspaceRole>();
      for (const row of rows) if (row.workspace_id !== null && row.role !== null) roles.set(row.workspace_id, row.role);
      if (!owner && roles.size === 0) return undefined;
      return { userId: user.id, name: user.name, email: user.email, orgId, isOwner: owner, roles };
    },
    async list(orgId): Promise<MemberSummary[]> {
      const roles = await db.all<RoleRow>(ROLES_IN_ORG, [orgId]);
      return (await db.all<UserRow & { is_owner: number }>(MEMBER_ROWS, [orgId, orgId])).map((row) => ({
        user: toUser(row),
        isOwner: row.is_owner === 1,
        roles: roles.filter((r) => r.user_id === row.id).map((r) => ({ workspaceId: r.workspace_id, role: r.role })),
      }));
    },
  };
}
