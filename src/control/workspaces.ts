import { InvalidInputError, NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import type { Clock } from './clock.js';
import { optionalUuid, requiredText } from './input.js';
import { toWorkspace, type WorkspaceRow } from './rows.js';
import type { SqlDatabase, SqlQueries } from './sql/types.js';
import type { ControlPlane } from './types.js';

const GET = 'SELECT id, org_id, name, is_default FROM workspaces WHERE id = ?';
const LIST =
  'SELECT id, org_id, name, is_default FROM workspaces WHERE org_id = ? ORDER BY is_default DESC, created_at, rowid';
const DEFAULT_OF = 'SELECT id, org_id, name, is_default FROM workspaces WHERE org_id = ? AND is_default = 1';
const ORG_EXISTS = 'SELECT 1 FROM organizations WHERE id = ?';
// lower() folds ASCII only on SQLite, like the NOCASE collation of its unique index.
const NAME_TAKEN = 'SELECT 1 FROM workspaces WHERE org_id = ? AND lower(name) = lower(?)';
const RENAME = 'UPDATE workspaces SET name = ? WHERE id = ? AND org_id = ?';
const NAME_TAKEN_BY_OTHER = 'SELECT 1 FROM workspaces WHERE org_id = ? AND lower(name) = lower(?) AND id <> ?';
const INSERT = 'INSERT INTO workspaces (id, org_id, name, is_default, created_at) VALUES (?, ?, ?, 0, ?)';

/** `perRequest` answers the reads a tool call makes (see readsUntilChange). */
export function sqlWorkspaces(
  db: SqlDatabase,
  clock: Clock,
  perRequest: Pick<SqlQueries, 'all' | 'get'>,
): ControlPlane['workspaces'] {
  return {
    async create(input) {
      const id = optionalUuid(input.id, 'workspace id') ?? newId();
      const name = requiredText(input.name, 'workspace name');
      const createdAt = clock().toISOString();
      return db.transaction(async (tx) => {
        if (!(await tx.get(ORG_EXISTS, [input.orgId]))) throw new NotFoundError('organization');
        if (await tx.get(NAME_TAKEN, [input.orgId, name])) {
          throw new InvalidInputError(`this organization already has a workspace named ${name}`);
        }
        if (await tx.get(GET, [id])) throw new InvalidInputError(`a workspace with id ${id} already exists`);
        await tx.run(INSERT, [id, input.orgId, name, createdAt]);
        return toWorkspace((await tx.get<WorkspaceRow>(GET, [id]))!);
      });
    },
    async get(id) {
      const row = await db.get<WorkspaceRow>(GET, [id]);
      return row && toWorkspace(row);
    },
    async list(orgId) {
      return (await perRequest.all<WorkspaceRow>(LIST, [orgId])).map(toWorkspace);
    },
    async rename({ orgId, workspaceId, name: given }) {
      const name = requiredText(given, 'workspace name');
      return db.transaction(async (tx) => {
        const row = await tx.get<WorkspaceRow>(GET, [workspaceId]);
        if (!row || row.org_id !== orgId) throw new NotFoundError('workspace');
        if (await tx.get(NAME_TAKEN_BY_OTHER, [orgId, name, workspaceId])) {
          throw new InvalidInputError(`this organization already has a workspace named ${name}`);
        }
        await tx.run(RENAME, [name, workspaceId, orgId]);
        return toWorkspace((await tx.get<WorkspaceRow>(GET, [workspaceId]))!);
      });
    },
    async defaultOf(orgId) {
      const row = await perRequest.get<WorkspaceRow>(DEFAULT_OF, [orgId]);
      if (!row) throw new NotFoundError('organization');
      return toWorkspace(row);
    },
  };
}
