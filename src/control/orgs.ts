import type BetterSqlite3 from 'better-sqlite3';
import { InvalidInputError } from '../errors.js';
import { newId } from '../ids.js';
import type { Clock } from './clock.js';
import { optionalUuid, requiredText } from './input.js';
import { toOrganization, toWorkspace, type OrganizationRow, type WorkspaceRow } from './rows.js';
import type { ControlPlane } from './types.js';

export const DEFAULT_WORKSPACE_NAME = 'Default';

export function sqliteOrgs(db: BetterSqlite3.Database, clock: Clock): ControlPlane['orgs'] {
  const get = db.prepare<[string], OrganizationRow>('SELECT id, name, created_at FROM organizations WHERE id = ?');
  const list = db.prepare<[], OrganizationRow>('SELECT id, name, created_at FROM organizations ORDER BY created_at, rowid');
  const forUser = db.prepare<[string, string], OrganizationRow>(
    `SELECT o.id, o.name, o.created_at FROM organizations o
     WHERE EXISTS (SELECT 1 FROM memberships m WHERE m.org_id = o.id AND m.user_id = ? AND m.is_owner = 1)
        OR EXISTS (SELECT 1 FROM workspace_roles r JOIN workspaces w ON w.id = r.workspace_id
                   WHERE w.org_id = o.id AND r.user_id = ?)
     ORDER BY o.created_at, o.rowid`,
  );
  const insertOrg = db.prepare<[string, string, string]>('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)');
  const insertWorkspace = db.prepare<[string, string, string, string]>(
    'INSERT INTO workspaces (id, org_id, name, is_default, created_at) VALUES (?, ?, ?, 1, ?)',
  );
  const workspaceById = db.prepare<[string], WorkspaceRow>('SELECT id, org_id, name, is_default FROM workspaces WHERE id = ?');

  // An organization never exists without its default workspace: both rows or neither.
  const create = db.transaction((id: string, name: string, createdAt: string) => {
    if (get.get(id)) throw new InvalidInputError(`an organization with id ${id} already exists`);
    insertOrg.run(id, name, createdAt);
    const workspaceId = newId();
    insertWorkspace.run(workspaceId, id, DEFAULT_WORKSPACE_NAME, createdAt);
    return { org: toOrganization(get.get(id)!), defaultWorkspace: toWorkspace(workspaceById.get(workspaceId)!) };
  });

  return {
    async create(input) {
      const id = optionalUuid(input.id, 'organization id') ?? newId();
      return create.immediate(id, requiredText(input.name, 'organization name'), clock().toISOString());
    },
    async get(id) {
      const row = get.get(id);
      return row && toOrganization(row);
    },
    async list() {
      return list.all().map(toOrganization);
    },
    async forUser(userId) {
      return forUser.all(userId, userId).map(toOrganization);
    },
  };
}
