import { loadBetterSqlite3 } from './better-sqlite3.js';
import { loadNodeSqlite } from './node-sqlite.js';
import type { SqliteConnection, SqliteDriver, SqliteDriverName, SqliteOpenOptions } from './types.js';

export { ThreadConnection, sqliteReadThread } from './sqlite-thread.js';
export { statementCache } from './statement-cache.js';
export type { Statement } from './thread-protocol.js';
export { transaction } from './transaction.js';
export type * from './types.js';

const LOADERS: Record<SqliteDriverName, () => Promise<SqliteDriver | undefined>> = {
  'node:sqlite': loadNodeSqlite,
  'better-sqlite3': loadBetterSqlite3,
};

/** In order of preference: Node's own module needs no native build and works on Node 24. */
export const SQLITE_DRIVERS = Object.keys(LOADERS) as SqliteDriverName[];

const loaded = new Map<SqliteDriverName, Promise<SqliteDriver | undefined>>();

/** One driver by name, loaded on first use; undefined when it cannot serve on this Node. */
export function loadSqliteDriver(name: SqliteDriverName): Promise<SqliteDriver | undefined> {
  let driver = loaded.get(name);
  if (!driver) {
    driver = LOADERS[name]();
    loaded.set(name, driver);
  }
  return driver;
}

let preferred: Promise<SqliteDriver> | undefined;

/** The first driver of SQLITE_DRIVERS that serves on this Node; only it is ever loaded. */
export function sqliteDriver(): Promise<SqliteDriver> {
  preferred ??= (async () => {
    for (const name of SQLITE_DRIVERS) {
      const driver = await loadSqliteDriver(name);
      if (driver) return driver;
    }
    throw new Error(`no SQLite driver serves on Node ${process.version}: tried ${SQLITE_DRIVERS.join(', ')}`);
  })();
  return preferred;
}

/** Opens (creating it when missing) a database file with the preferred driver. */
export async function openSqlite(file: string, options: SqliteOpenOptions): Promise<SqliteConnection> {
  return (await sqliteDriver()).open(file, options);
}
