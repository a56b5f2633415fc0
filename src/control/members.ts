import type BetterSqlite3 from 'better-sqlite3';
import type { Principal, WorkspaceRole } from '../access/principal.js';
import { isWorkspaceRole, WORKSPACE_ROLES } from '../access/roles.js';
import { InvalidInputError, NotFoundError } from '../errors.js';
import type { Clock } from './clock.js';
import { USER_COLUMNS, toUser, type UserRow } from './rows.js';
import type { ControlPlane, MemberSummary } from './types.js';

interface RoleRow {
  user_id: string;
  workspace_id: string;
  role: WorkspaceRole;
}

/**
 * A member of an organization is its owner or holds a role in at least one of its
 * workspaces; a membership row alone (left after the last role is revoked) makes no member.
 */
export function sqliteMembers(db: BetterSqlite3.Database, clock: Clock): ControlPlane['members'] {
  const orgExists = db.prepare<[string], 1>('SELECT 1 FROM organizations WHERE id = ?');
  const userRow = db.prepare<[string], UserRow>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = ?`);
  const workspaceOrg = db.prepare<[string], { org_id: string }>('SELECT org_id FROM workspaces WHERE id = ?');
  const setOwner = db.prepare<[string, string, number, string]>(
    `INSERT INTO memberships (org_id, user_id, is_owner, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (org_id, user_id) DO UPDATE SET is_owner = excluded.is_owner`,
  );
  const ensureMembership = db.prepare<[string, string, string]>(
    'INSERT INTO memberships (org_id, user_id, is_owner, created_at) VALUES (?, ?, 0, ?) ON CONFLICT DO NOTHING',
  );
  const grant = db.prepare<[string, string, string, string]>(
    `INSERT INTO workspace_roles (workspace_id, user_id, role, granted_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = excluded.role, granted_at = excluded.granted_at`,
  );
  const revoke = db.prepare<[string, string]>('DELETE FROM workspace_roles WHERE workspace_id = ? AND user_id = ?');
  const isOwner = db.prepare<[string, string], { is_owner: number }>(
    'SELECT is_owner FROM memberships WHERE org_id = ? AND user_id = ?',
  );
  const rolesOf = db.prepare<[string, string], RoleRow>(
    `SELECT r.user_id, r.workspace_id, r.role FROM workspace_roles r JOIN workspaces w ON w.id = r.workspace_id
     WHERE w.org_id = ? AND r.user_id = ? ORDER BY w.is_default DESC, w.created_at, w.rowid`,
  );
  const memberRows = db.prepare<[string, string], UserRow & { is_owner: number }>(
    `SELECT ${USER_COLUMNS}, COALESCE(m.is_owner, 0) AS is_owner FROM users u
     LEFT JOIN memberships m ON m.user_id = u.id AND m.org_id = ?
     WHERE m.is_owner = 1
        OR EXISTS (SELECT 1 FROM workspace_roles r JOIN workspaces w ON w.id = r.workspace_id
                   WHERE w.org_id = ? AND r.user_id = u.id)
     ORDER BY u.email, u.created_at`,
  );
  const rolesInOrg = db.prepare<[string], RoleRow>(
    `SELECT r.user_id, r.workspace_id, r.role FROM workspace_roles r JOIN workspaces w ON w.id = r.workspace_id
     WHERE w.org_id = ? ORDER BY w.is_default DESC, w.created_at, w.rowid`,
  );

  const requireOrgAndUser = (orgId: string, userId: string) => {
    if (!orgExists.get(orgId)) throw new NotFoundError('organization');
    if (!userRow.get(userId)) throw new NotFoundError('user');
  };
  const requireWorkspaceOf = (orgId: string, workspaceId: string) => {
    const workspace = workspaceOrg.get(workspaceId);
    if (!workspace) throw new NotFoundError('workspace');
    if (workspace.org_id !== orgId) throw new InvalidInputError('the workspace belongs to another organization');
  };

  const grantRole = db.transaction((orgId: string, userId: string, workspaceId: string, role: string, at: string) => {
    requireOrgAndUser(orgId, userId);
    requireWorkspaceOf(orgId, workspaceId);
    ensureMembership.run(orgId, userId, at);
    grant.run(workspaceId, userId, role, at);
  });

  return {
    async setOwner(orgId, userId, owner) {
      requireOrgAndUser(orgId, userId);
      setOwner.run(orgId, userId, owner ? 1 : 0, clock().toISOString());
    },
    async grant({ orgId, userId, workspaceId, role }) {
      if (!isWorkspaceRole(role)) throw new InvalidInputError(`role must be one of ${WORKSPACE_ROLES.join(', ')}`);
      grantRole.immediate(orgId, userId, workspaceId, role, clock().toISOString());
    },
    async revoke({ orgId, userId, workspaceId }) {
      requireOrgAndUser(orgId, userId);
      requireWorkspaceOf(orgId, workspaceId);
      revoke.run(workspaceId, userId);
    },
    async principal(orgId, userId): Promise<Principal | undefined> {
      const user = userRow.get(userId);
      if (!user || !orgExists.get(orgId)) return undefined;
      const owner = isOwner.get(orgId, userId)?.is_owner === 1;
      const roles = new Map(rolesOf.all(orgId, userId).map((r) => [r.workspace_id, r.role] as const));
      if (!owner && roles.size === 0) return undefined;
      return { userId: user.id, name: user.name, email: user.email, orgId, isOwner: owner, roles };
    },
    async list(orgId): Promise<MemberSummary[]> {
      const roles = rolesInOrg.all(orgId);
      return memberRows.all(orgId, orgId).map((row) => ({
        user: toUser(row),
        isOwner: row.is_owner === 1,
        roles: roles.filter((r) => r.user_id === row.id).map((r) => ({ workspaceId: r.workspace_id, role: r.role })),
      }));
    },
  };
}
