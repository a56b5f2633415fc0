import { InvalidInputError } from '../errors.js';
import { newId } from '../ids.js';
import type { Clock } from './clock.js';
import { optionalUuid, requiredText } from './input.js';
import { toOrganization, toWorkspace, type OrganizationRow, type WorkspaceRow } from './rows.js';
import type { SqlDatabase, SqlQueries } from './sql/types.js';
import type { ControlPlane } from './types.js';

export const DEFAULT_WORKSPACE_NAME = 'Default';

const GET = 'SELECT id, name, created_at FROM organizations WHERE id = ?';
const LIST = 'SELECT id, name, created_at FROM organizations ORDER BY created_at, rowid';
const FOR_USER = `SELECT o.id, o.name, o.created_at FROM organizations o
  WHERE EXISTS (SELECT 1 FROM memberships m WHERE m.org_id = o.id AND m.user_id = ? AND m.is_owner = 1)
     OR EXISTS (SELECT 1 FROM workspace_roles r JOIN workspaces w ON w.id = r.workspace_id
                WHERE w.org_id = o.id AND r.user_id = ?)
  ORDER BY o.created_at, o.rowid`;
const INSERT_ORG = 'INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)';
const INSERT_WORKSPACE = 'INSERT INTO workspaces (id, org_id, name, is_default, created_at) VALUES (?, ?, ?, 1, ?)';
const WORKSPACE_BY_ID = 'SELECT id, org_id, name, is_default FROM workspaces WHERE id = ?';

/** `perRequest` answers the lookup of one organization, made on every Git request and web page (see readsUntilChange). */
export function sqlOrgs(db: SqlDatabase, clock: Clock, perRequest: Pick<SqlQueries, 'get'>): ControlPlane['orgs'] {
  return {
    async create(input) {
      const id = optionalUuid(input.id, 'organization id') ?? newId();
      const name = requiredText(input.name, 'organization name');
      const createdAt = clock().toISOString();
      // An organization never exists without its default workspace: both rows or neither.
      return db.transaction(async (tx) => {
        if (await tx.get(GET, [id])) throw new InvalidInputError(`an organization with id ${id} already exists`);
        await tx.run(INSERT_ORG, [id, name, createdAt]);
        const workspaceId = newId();
        await tx.run(INSERT_WORKSPACE, [workspaceId, id, DEFAULT_WORKSPACE_NAME, createdAt]);
        return {
          org: toOrganization((await tx.get<OrganizationRow>(GET, [id]))!),
          defaultWorkspace: toWorkspace((await tx.get<WorkspaceRow>(WORKSPACE_BY_ID, [workspaceId]))!),
        };
      });
    },
    async get(id) {
      const row = await perRequest.get<OrganizationRow>(GET, [id]);
      return row && toOrganization(row);
    },
    async list() {
      return (await db.all<OrganizationRow>(LIST)).map(toOrganization);
    },
    async forUser(userId) {
      return (await db.all<OrganizationRow>(FOR_USER, [userId, userId])).map(toOrganization);
    },
  };
}
