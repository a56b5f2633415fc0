import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { sqliteDriver, type SqliteConnection, type SqliteDriver, type SqliteStatement } from '../../sqlite/index.js';
import type { DialectMigrations, SqlDatabase, SqlQueries, SqlValue } from '../sql/types.js';
import { applyMigrations } from './migrations.js';

/** How long a writer waits for another process's lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5_000;

/** The store's statements are a fixed set of SQL texts: each is compiled once, not on every call. */
function queriesOn(db: SqliteConnection): SqlQueries {
  const statements = new Map<string, SqliteStatement>();
  const statement = (sql: string): SqliteStatement => {
    let prepared = statements.get(sql);
    if (!prepared) {
      prepared = db.prepare(sql);
      statements.set(sql, prepared);
    }
    return prepared;
  };
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
 * The embedded backend: one connection to `specbase.db` through the driver seam (src/sqlite).
 * Statements run synchronously, but a transaction's work is async, so other callers wait at
 * the gate while one is open instead of slipping their statements into it.
 */
export class SqliteDatabase implements SqlDatabase {
  readonly dialect = 'sqlite' as const;
  readonly #direct: SqlQueries;
  #gate: Promise<void> = Promise.resolve();

  constructor(readonly handle: SqliteConnection) {
    this.#direct = queriesOn(handle);
  }

  async all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    await this.#gate;
    return this.#direct.all<T>(sql, params);
  }

  async get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    await this.#gate;
    return this.#direct.get<T>(sql, params);
  }

  async run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    await this.#gate;
    return this.#direct.run(sql, params);
  }

  async transaction<T>(work: (tx: SqlQueries) => Promise<T>): Promise<T> {
    const previous = this.#gate;
    let open!: () => void;
    this.#gate = previous.then(() => new Promise<void>((resolve) => (open = resolve)));
    await previous;
    try {
      this.handle.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(this.#direct);
        this.handle.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.handle.inTransaction) this.handle.exec('ROLLBACK');
        throw error;
      }
    } finally {
      open();
    }
  }

  async migrate(namespace: string, migrations: DialectMigrations): Promise<number[]> {
    await this.#gate;
    return applyMigrations(this.handle, namespace, migrations.sqlite);
  }

  async exclusive<T>(_name: string, work: () => Promise<T>): Promise<T> {
    return work();
  }

  async ping(): Promise<void> {
    await this.get('SELECT 1');
  }

  async close(): Promise<void> {
    if (this.handle.isOpen) this.handle.close();
  }
}

/**
 * Opens (creating it and its directory when missing) the database file in WAL mode, with the
 * driver this Node prefers unless told which (the driver benchmark compares them).
 */
export async function openSqliteDatabase(file: string, driver?: SqliteDriver): Promise<SqliteDatabase> {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const handle = (driver ?? (await sqliteDriver())).open(file, { busyTimeoutMs: BUSY_TIMEOUT_MS });
  try {
    handle.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
    return new SqliteDatabase(handle);
  } catch (error) {
    handle.close();
    throw error;
  }
}
