import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  ThreadConnection,
  sqliteDriver,
  sqliteReadThread,
  type SqliteConnection,
  type SqliteDriver,
} from '../../sqlite/index.js';
import type { DialectMigrations, SqlDatabase, SqlQueries, SqlValue } from '../sql/types.js';
import { applyMigrations } from './migrations.js';

/** How long a writer waits for another process's lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5_000;
/** Settings each connection needs (journal mode is the file's, set once). */
const CONNECTION_SETTINGS = 'PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;';
/** The read connection's: a write sent to it by mistake fails instead of bypassing the writers' gate. */
const READER_SETTINGS = `${CONNECTION_SETTINGS} PRAGMA query_only = ON;`;

/**
 * The embedded backend: `specbase.db` through the driver seam (src/sqlite), on no connection of
 * the event loop's own. Reads run on a connection in the SQLite read thread: in WAL mode they
 * never wait for a writer, and on the event loop they waited on SQLite's per-file mutexes while
 * the writers' thread held them through a slow disk. Writes and transactions run on a connection
 * in the writers' thread: a commit can block on a busy disk (or wait for another process's lock)
 * for hundreds of milliseconds. A transaction's work is async, so other writes wait at the gate
 * while one is open instead of slipping their statements into it; reads meanwhile see the
 * database as it was before the transaction. Migrations, run once at start, are the one thing
 * done on the event loop's connection (`handle`), which is otherwise idle.
 */
/**
 * How long one read of data_version answers for. A commit of ours resets it as soon as it lands;
 * one of another process (the CLI revoking a token) is seen within this long. Read once a turn
 * instead, it was a round trip to the read thread for almost every MCP call under load (7,586
 * for 8,108 searches at 100,000 artifacts), about a tenth of the event loop's time per search.
 */
export const STAMP_HELD_MS = 10;

export class SqliteDatabase implements SqlDatabase {
  readonly dialect = 'sqlite' as const;
  readonly #writes: SqlQueries;
  /** changeStamp's answer for STAMP_HELD_MS, until a write of ours lands. */
  #stamp: Promise<number> | undefined;
  #gate: Promise<void> = Promise.resolve();

  constructor(
    readonly handle: SqliteConnection,
    private readonly reader: ThreadConnection,
    private readonly writer: ThreadConnection,
  ) {
    this.#writes = {
      all: (sql, params) => this.#landed(writer.all(sql, params)),
      get: (sql, params) => this.#landed(writer.get(sql, params)),
      run: (sql, params) => this.#landed(writer.run(sql, params)),
    };
  }

  async all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.reader.all<T>(sql, params);
  }

  async get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.reader.get<T>(sql, params);
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
    this.#stamp = undefined;
    return applied;
  }

  async exclusive<T>(_name: string, work: () => Promise<T>): Promise<T> {
    return work();
  }

  /**
   * SQLite's data_version on the read connection, which changes when another connection commits
   * (every write goes through the writers' thread or, for migrations, the event loop's own).
   */
  changeStamp(): Promise<number> {
    if (this.#stamp === undefined) {
      this.#stamp = this.reader.get<{ data_version: number }>('PRAGMA data_version').then((row) => row!.data_version);
      setTimeout(() => (this.#stamp = undefined), STAMP_HELD_MS).unref();
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

  /** The readers first, so that the writers' thread, closing last, is the one that checkpoints and flushes. */
  async close(): Promise<void> {
    if (this.handle.isOpen) this.handle.close();
    await this.reader.close();
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
    const spec = { driver: handle.driver, file: path.resolve(file), busyTimeoutMs: BUSY_TIMEOUT_MS };
    const reader = await ThreadConnection.open({ ...spec, setup: READER_SETTINGS }, sqliteReadThread);
    const writer = await ThreadConnection.open({ ...spec, setup: CONNECTION_SETTINGS }).catch(
      async (error: unknown) => {
        await reader.close();
        throw error;
      },
    );
    return new SqliteDatabase(handle, reader, writer);
  } catch (error) {
    handle.close();
    throw error;
  }
}
