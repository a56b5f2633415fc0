import type { SqliteConnection, SqliteDriver, SqliteStatement, SqliteValue } from './types.js';

/**
 * The part of `node:sqlite` we use, typed here: @types/node follows the lowest supported Node
 * (20, which has no such module), so that nothing newer is used by accident elsewhere.
 */
interface NodeSqliteStatement {
  all(...params: SqliteValue[]): unknown[];
  get(...params: SqliteValue[]): unknown;
  run(...params: SqliteValue[]): { changes: number | bigint };
}
interface NodeSqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): NodeSqliteStatement;
  /** Since Node 22.16 / 24.0, like the `timeout` option. */
  readonly isTransaction?: boolean;
  readonly isOpen?: boolean;
  close(): void;
}
interface NodeSqliteModule {
  DatabaseSync: new (file: string, options?: { timeout?: number }) => NodeSqliteDatabase;
}

/** A variable, so that TypeScript does not look for the module's types (see above). */
const MODULE: string = 'node:sqlite';

class NodeSqliteConnection implements SqliteConnection {
  readonly driver = 'node:sqlite' as const;

  constructor(private readonly db: NodeSqliteDatabase) {}

  exec(sql: string): void {
    this.db.exec(sql);
  }

  prepare(sql: string): SqliteStatement {
    const statement = this.db.prepare(sql);
    return {
      all: <T>(...params: readonly SqliteValue[]) => statement.all(...params) as T[],
      get: <T>(...params: readonly SqliteValue[]) => statement.get(...params) as T | undefined,
      // A count of rows: a number, unless the connection reads BigInts (ours never does).
      run: (...params: readonly SqliteValue[]) => Number(statement.run(...params).changes),
    };
  }

  get inTransaction(): boolean {
    return this.db.isTransaction === true;
  }

  get isOpen(): boolean {
    return this.db.isOpen === true;
  }

  /** Idempotent, as better-sqlite3's is (node:sqlite's own throws when already closed). */
  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}

/** `type` is the warning's type name, or an options object holding it. */
function isSqliteExperimentalWarning(warning: unknown, type: unknown): boolean {
  const typeName = typeof type === 'object' && type !== null && 'type' in type ? type.type : type;
  const message = warning instanceof Error ? warning.message : String(warning);
  return typeName === 'ExperimentalWarning' && message.startsWith('SQLite is an experimental feature');
}

/**
 * Imports node:sqlite without its one-time ExperimentalWarning (Node 22 prints it on the
 * service's and the CLI's stderr, where it reads like a fault; Node 24 no longer emits it):
 * only that warning is dropped, and only while the module loads; every other one passes.
 */
async function importQuietly(): Promise<NodeSqliteModule | undefined> {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (warning: unknown, type?: unknown, ...rest: unknown[]) {
    if (isSqliteExperimentalWarning(warning, type)) return;
    return Reflect.apply(emitWarning, process, [warning, type, ...rest]) as void;
  } as typeof process.emitWarning;
  try {
    return (await import(MODULE)) as NodeSqliteModule;
  } catch {
    // Node 20, and 22 before 22.13, have no node:sqlite without a flag.
    return undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** Whether this Node's node:sqlite has all we use: the busy `timeout` option and `isTransaction`. */
function isComplete(DatabaseSync: NodeSqliteModule['DatabaseSync']): boolean {
  const probe = new DatabaseSync(':memory:', { timeout: 1 });
  try {
    const { timeout } = probe.prepare('PRAGMA busy_timeout').get() as { timeout: number };
    return timeout === 1 && typeof probe.isTransaction === 'boolean' && typeof probe.isOpen === 'boolean';
  } finally {
    probe.close();
  }
}

/** The driver, or undefined where this Node's node:sqlite is missing, flagged or lacks what we use. */
export async function loadNodeSqlite(): Promise<SqliteDriver | undefined> {
  const sqlite = await importQuietly();
  if (!sqlite || !isComplete(sqlite.DatabaseSync)) return undefined;
  return {
    name: 'node:sqlite',
    open: (file, { busyTimeoutMs }) =>
      new NodeSqliteConnection(new sqlite.DatabaseSync(file, { timeout: busyTimeoutMs })),
  };
}
