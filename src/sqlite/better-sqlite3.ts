import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteConnection, SqliteDriver, SqliteStatement, SqliteValue } from './types.js';

/**
 * better-sqlite3 12 aborts the process on Node 24 when the garbage collector finalizes one of
 * its statements (`Assertion failed: (env) != nullptr` in `RemoveEnvironmentCleanupHook`), and
 * its next major needs Node 22: there it is only for the Node versions whose node:sqlite
 * cannot serve (Node 20, 22 before 22.16).
 */
const LAST_NODE_MAJOR = 23;

class BetterSqliteConnection implements SqliteConnection {
  readonly driver = 'better-sqlite3' as const;

  constructor(private readonly db: BetterSqlite3.Database) {}

  exec(sql: string): void {
    this.db.exec(sql);
  }

  prepare(sql: string): SqliteStatement {
    const statement = this.db.prepare<SqliteValue[], unknown>(sql);
    return {
      all: <T>(...params: readonly SqliteValue[]) => statement.all(...params) as T[],
      get: <T>(...params: readonly SqliteValue[]) => statement.get(...params) as T | undefined,
      run: (...params: readonly SqliteValue[]) => statement.run(...params).changes,
    };
  }

  get inTransaction(): boolean {
    return this.db.inTransaction;
  }

  get isOpen(): boolean {
    return this.db.open;
  }

  close(): void {
    this.db.close();
  }
}

/** The driver, or undefined where it must not or cannot load (its native module is loaded here, never before). */
export async function loadBetterSqlite3(): Promise<SqliteDriver | undefined> {
  if (Number(process.versions.node.split('.')[0]) > LAST_NODE_MAJOR) return undefined;
  let Database: typeof BetterSqlite3;
  try {
    Database = (await import('better-sqlite3')).default;
    // The native module loads with the first connection: one built for another Node fails here.
    new Database(':memory:').close();
  } catch {
    return undefined;
  }
  return {
    name: 'better-sqlite3',
    open: (file, { busyTimeoutMs }) => new BetterSqliteConnection(new Database(file, { timeout: busyTimeoutMs })),
  };
}
