import type pg from 'pg';
import type { Migration } from '../sql/types.js';
import { assertWellFormed, inVersionOrder } from '../sql/well-formed.js';

/** One advisory lock key for every Specbase migration ("SPECBASE" in ASCII, 8 bytes). */
const MIGRATION_LOCK_KEY = '6003374458461573957';

/**
 * Brings one namespace up to date, like the SQLite backend, but across machines: replicas
 * starting together queue on a session-level advisory lock, and each migration commits
 * together with its row in `schema_migrations`, so a version is applied exactly once.
 */
export async function applyPostgresMigrations(
  pool: pg.Pool,
  namespace: string,
  migrations: readonly Migration[],
): Promise<number[]> {
  assertWellFormed(namespace, migrations);
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        namespace TEXT NOT NULL,
        version INTEGER NOT NULL,
        applied_at TEXT NOT NULL,
        PRIMARY KEY (namespace, version))`);
      const done = await client.query<{ version: number }>(
        'SELECT version FROM schema_migrations WHERE namespace = $1',
        [namespace],
      );
      const appliedBefore = new Set(done.rows.map((row) => row.version));
      const applied: number[] = [];
      for (const migration of inVersionOrder(migrations)) {
        if (appliedBefore.has(migration.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (namespace, version, applied_at) VALUES ($1, $2, $3)', [
            namespace,
            migration.version,
            new Date().toISOString(),
          ]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
        applied.push(migration.version);
      }
      return applied;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
