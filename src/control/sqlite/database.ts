import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  statementCache,
  ThreadConnection,
  sqliteDriver,
  type SqliteConnection,
  type SqliteDriver,
  type SqliteStatement,
} from '../../sqlite/index.js';
import type { DialectMigrations, SqlDatabase, SqlQueries, SqlValue } from '../sql/types.js';
import { applyMigrations } from './migrations.js';

/** How long a writer waits for another process's lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5_000;
/** Settings each connection needs (journal mode is the file's, set once). */
const CONNECTION_SETTINGS = 'PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;';

/** The store's queries on a connection in this thread, each SQL text compiled once. */
function queriesOn(db: SqliteConnection): SqlQueries {
  const statement = statementCache(db);
  return {
    async all<T>(sql: string, params: readonly SqlValue[] = []) {
      return statement(sql).all<T>(...params);
    },
    async get<T>(sql: string, params: readonly SqlValue[] = []) {
      return statement(sql).get<T>(...params);
    },
    async run(sql: string, params: readonly SqlValue[] = []) {
      return statement(sql).run(...params);
    },
  };
}

/**
 * The embedded backend: `specbase.db` through the driver seam (src/sqlite). Reads run on a
 * connection in this thread: they are short and, in WAL mode, never wait for a writer. Writes
 * and transactions run on a second connection in a worker thread: a commit can block on a busy
 * disk (or wait for another process's lock) for hundreds of milliseconds, which on the event
 * loop would stall every request. A transaction's work is async, so other writes wait at the
 * gate while one is open instead of slipping their statements into it; reads meanwhile see the
 * database as it was before the transaction.
 */
export class SqliteDatabase implements SqlDatabase {
  readonly dialect = 'sqlite' as const;
  readonly #reads: SqlQueries;
  readonly #writes: SqlQueries;
  readonly #dataVersion: SqliteStatement;
  /** Migrations write on the read connection itself, whose own commits data_version does not count. */
  #migrations = 0;
  /** changeStamp's answer for the rest of this turn of the event loop, until a write of ours lands. */
  #stamp: number | undefined;
  #gate: Promise<void> = Promise.resolve();

  constructor(
    readonly handle: SqliteConnection,
    private readonly writer: ThreadConnection,
  ) {
    this.#reads = queriesOn(handle);
    this.#dataVersion = handle.prepare('PRAGMA data_version');
    this.#writes = {
      all: (sql, params) => this.#landed(writer.all(sql, params)),
      get: (sql, params) => this.#landed(writer.get(sql, params)),
      run: (sql, params) => this.#landed(writer.run(sql, params)),
    };
  }

  async all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.#reads.all<T>(sql, params);
  }

  async get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.#reads.get<T>(sql, params);
  }

  async run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    await this.#gate;
    return this.#writes.run(sql, params);
  }

  async transaction<T>(work: (tx: SqlQueries) => Promise<T>): Promise<T> {
    const previous = this.#gate;
    let open!: () => void;
    this.#gate = previous.then(() => new Promise<void>((resolve) => (open = resolve)));
    await previous;
    try {
      await this.writer.begin();
      try {
        const result = await work(this.#writes);
        await this.#landed(this.writer.commit());
        return result;
      } catch (error) {
        await this.writer.rollback();
        throw error;
      }
    } finally {
      open();
    }
  }

  async migrate(namespace: string, migrations: DialectMigrations): Promise<number[]> {
    await this.#gate;
    const applied = applyMigrations(this.handle, namespace, migrations.sqlite);
    this.#migrations += 1;
    this.#stamp = undefined;
    return applied;
  }

  async exclusive<T>(_name: string, work: () => Promise<T>): Promise<T> {
    return work();
  }

  /**
   * SQLite's data_version on the read connection, which changes when another connection commits
   * (every write but a migration goes through the writer thread's connection), with the
   * migrations run on this one counted above it, so no commit goes unseen.
   */
  changeStamp(): number {
    if (this.#stamp === undefined) {
      this.#stamp = this.#migrations * 2 ** 32 + this.#dataVersion.get<{ data_version: number }>()!.data_version;
      // Read once a turn: a request checks its token, principal and workspaces one after another
      // (about 10 µs a read), and requests handled in one turn overlap anyway. A commit of
      // another process is seen from the next turn on; one of ours as soon as it lands.
      setImmediate(() => (this.#stamp = undefined)).unref();
    }
    return this.#stamp;
  }

  /** A write through the writer thread: once it lands, the stamp is read again. */
  #landed<T>(write: Promise<T>): Promise<T> {
    return write.finally(() => (this.#stamp = undefined));
  }

  async ping(): Promise<void> {
    await this.get('SELECT 1');
  }

  /** The read connection first, so that the writer's thread, closing last, is the one that checkpoints and flushes. */
  async close(): Promise<void> {
    if (this.handle.isOpen) this.handle.close();
    await this.writer.close();
  }
}

/**
 * Opens (creating it and its directory when missing) the database file in WAL mode, with the
 * driver this Node prefers unless told which (the driver benchmark compares them).
 */
export async function openSqliteDatabase(file: string, driver?: SqliteDriver): Promise<SqliteDatabase> {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
  const handle = (driver ?? (await sqliteDriver())).open(file, { busyTimeoutMs: BUSY_TIMEOUT_MS });
  try {
    handle.exec(`PRAGMA journal_mode = WAL; ${CONNECTION_SETTINGS}`);
    const writer = await ThreadConnection.open({
      driver: handle.driver,
      file: path.resolve(file),
      busyTimeoutMs: BUSY_TIMEOUT_MS,
      setup: CONNECTION_SETTINGS,
    });
    return new SqliteDatabase(handle, writer);
  } catch (error) {
    handle.close();
    throw error;
  }
}
