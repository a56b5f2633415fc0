/**
 * The few SQLite operations Specbase uses (the control plane's file and each organization's
 * saved state), the same over Node's built-in `node:sqlite` and over better-sqlite3. Both
 * users store text and numbers only, so values are never blobs or BigInts; parameters are
 * always positional (`?`).
 */
export type SqliteValue = string | number | null;

export type SqliteRow = Record<string, unknown>;

/**
 * Where the drivers differ and callers must not lean on either: use all/get only for statements
 * that return rows (better-sqlite3 refuses others), and pass one value per `?` (node:sqlite
 * binds missing ones as NULL, better-sqlite3 throws). Rows of node:sqlite have no prototype.
 */
export interface SqliteStatement {
  all<T = SqliteRow>(...params: readonly SqliteValue[]): T[];
  /** The first row, or undefined when there is none. */
  get<T = SqliteRow>(...params: readonly SqliteValue[]): T | undefined;
  /** Returns how many rows the statement changed. */
  run(...params: readonly SqliteValue[]): number;
}

export type SqliteDriverName = 'node:sqlite' | 'better-sqlite3';

export interface SqliteConnection {
  readonly driver: SqliteDriverName;
  /** Runs one or more statements, discarding what they return (DDL, PRAGMA settings, BEGIN). */
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  readonly inTransaction: boolean;
  readonly isOpen: boolean;
  close(): void;
}

export interface SqliteOpenOptions {
  /** How long a writer waits for another connection's lock before SQLITE_BUSY. */
  readonly busyTimeoutMs: number;
}

export interface SqliteDriver {
  readonly name: SqliteDriverName;
  /** Opens the file, creating it when missing (its directory must exist). */
  open(file: string, options: SqliteOpenOptions): SqliteConnection;
}
