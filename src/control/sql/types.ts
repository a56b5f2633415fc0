/**
 * The one seam between the control plane's stores (and the auth tables) and a database driver.
 * Statements are written once, in the SQL that SQLite and PostgreSQL share, with `?` for
 * parameters; each backend maps what differs (placeholders, transactions, migrations).
 */
export type SqlValue = string | number | null;

export interface SqlQueries {
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** Returns how many rows the statement changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
}

export interface Migration {
  readonly version: number;
  readonly sql: string;
}

/** A namespace's schema history, once per dialect: the data types and DDL differ. */
export interface DialectMigrations {
  readonly sqlite: readonly Migration[];
  readonly postgres: readonly Migration[];
}

export type SqlDialect = keyof DialectMigrations;

export interface SqlDatabase extends SqlQueries {
  readonly dialect: SqlDialect;
  /**
   * Runs `work` as one serializable transaction: all of it or none of it, as if alone. `work`
   * must use `tx`, never the database itself, and may be run again when PostgreSQL reports a
   * serialization failure, so it must have no effect outside the database.
   */
  transaction<T>(work: (tx: SqlQueries) => Promise<T>): Promise<T>;
  /** Brings one namespace's tables up to date; replicas starting together apply each version once. */
  migrate(namespace: string, migrations: DialectMigrations): Promise<number[]>;
  /**
   * Runs `work` while holding a lock named `name` across every process on this database (on
   * SQLite, within this process only): for one-time set-up that replicas must not do twice.
   */
  exclusive<T>(name: string, work: () => Promise<T>): Promise<T>;
  /**
   * A number that moves whenever anything commits to the database, this process or another;
   * undefined when the backend cannot tell without a query of its own (PostgreSQL). It lets a read
   * that runs on every request be answered from memory (see readsUntilChange). It may be
   * held for a few milliseconds: a commit of another process shows after at most that long,
   * one of this process as soon as it lands.
   */
  changeStamp(): Promise<number | undefined>;
  /** Throws when the database cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
