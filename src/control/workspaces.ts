import type BetterSqlite3 from 'better-sqlite3';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import type { Clock } from './clock.js';
import { optionalUuid, requiredText } from './input.js';
import { toWorkspace, type WorkspaceRow } from './rows.js';
import type { ControlPlane } from './types.js';

export function sqliteWorkspaces(db: BetterSqlite3.Database, clock: Clock): ControlPlane['workspaces'] {
  const get = db.prepare<[string], WorkspaceRow>('SELECT id, org_id, name, is_default FROM workspaces WHERE id = ?');
  const list = db.prepare<[string], WorkspaceRow>(
    'SELECT id, org_id, name, is_default FROM workspaces WHERE org_id = ? ORDER BY is_default DESC, created_at, rowid',
  );
  const defaultOf = db.prepare<[string], WorkspaceRow>(
    'SELECT id, org_id, name, is_default FROM workspaces WHERE org_id = ? AND is_default = 1',
  );
  const orgExists = db.prepare<[string], 1>('SELECT 1 FROM organizations WHERE id = ?');
  const nameTaken = db.prepare<[string, string], 1>('SELECT 1 FROM workspaces WHERE org_id = ? AND name = ? COLLATE NOCASE');
  const insert = db.prepare<[string, string, string, string]>(
    'INSERT INTO workspaces (id, org_id, name, is_default, created_at) VALUES (?, ?, ?, 0, ?)',
  );

  const create = db.transaction((id: string, orgId: string, name: string, createdAt: string) => {
    if (!orgExists.get(orgId)) throw new NotFoundError('organization');
    if (nameTaken.get(orgId, name)) throw new InvalidInputError(`this organization already has a workspace named ${name}`);
    if (get.get(id)) throw new InvalidInputError(`a workspace with id ${id} already exists`);
    insert.run(id, orgId, name, createdAt);
    return toWorkspace(get.get(id)!);
  });

  return {
    async create(input) {
      const id = optionalUuid(input.id, 'workspace id') ?? newId();
      return create.immediate(id, input.orgId, requiredText(input.name, 'workspace name'), clock().toISOString());
    },
    async get(id) {
      const row = get.get(id);
      return row && toWorkspace(row);
    },
    async list(orgId) {
      return list.all(orgId).map(toWorkspace);
    },
    async defaultOf(orgId) {
      const row = defaultOf.get(orgId);
      if (!row) throw new NotFoundError('organization');
      return toWorkspace(row);
    },
  };
}
