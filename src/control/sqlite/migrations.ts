import { transaction, type SqliteConnection } from '../../sqlite/index.js';
import type { Migration } from '../sql/types.js';
import { assertWellFormed, inVersionOrder } from '../sql/well-formed.js';

/**
 * Brings one namespace of the shared database up to date. Several concerns (control, auth)
 * own tables in the same file, so versions are counted per namespace. Each migration runs in
 * its own IMMEDIATE transaction and is re-checked inside it, so two processes starting at once
 * apply it exactly once. Returns the versions applied by this call.
 */
export function applyMigrations(db: SqliteConnection, namespace: string, migrations: readonly Migration[]): number[] {
  assertWellFormed(namespace, migrations);
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    namespace TEXT NOT NULL,
    version INTEGER NOT NULL,
    applied_at TEXT NOT NULL,
    PRIMARY KEY (namespace, version))`);
  const isApplied = db.prepare('SELECT 1 FROM schema_migrations WHERE namespace = ? AND version = ?');
  const markApplied = db.prepare('INSERT INTO schema_migrations (namespace, version, applied_at) VALUES (?, ?, ?)');
  const applied: number[] = [];
  for (const migration of inVersionOrder(migrations)) {
    const apply = () => {
      if (isApplied.get(namespace, migration.version)) return false;
      db.exec(migration.sql);
      markApplied.run(namespace, migration.version, new Date().toISOString());
      return true;
    };
    if (transaction(db, apply, 'IMMEDIATE')) applied.push(migration.version);
  }
  return applied;
}
