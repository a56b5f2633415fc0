import type { SqliteConnection } from './types.js';

/**
 * Runs synchronous `work` as one transaction: committed when it returns, rolled back when it
 * (or the commit) throws. IMMEDIATE takes the write lock at once, so two processes that both
 * read-then-write cannot deadlock on the upgrade; DEFERRED (SQLite's default) waits until the
 * first write. node:sqlite has no helper for this; better-sqlite3's would differ in nesting.
 */
export function transaction<T>(db: SqliteConnection, work: () => T, mode: 'DEFERRED' | 'IMMEDIATE' = 'DEFERRED'): T {
  db.exec(`BEGIN ${mode}`);
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
