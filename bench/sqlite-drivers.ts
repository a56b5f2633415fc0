/**
 * The SQLite drivers side by side (src/sqlite): what every authenticated MCP call asks of the
 * control plane (verify the personal access token, build the principal), read from the
 * database every time as it is when the memo of those reads is cleared, on a fresh
 * `specbase.db` through node:sqlite, as a ratio to better-sqlite3, rounds alternating. Both
 * load only on Node 22.16+ below 24 (`.tools/node22-run`, see README "Node versions"); on
 * another Node it says which driver serves there and measures nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SqlControlPlane, CONTROL_NAMESPACE } from '../src/control/index.js';
import { CONTROL_MIGRATIONS } from '../src/control/schema.js';
import { openSqliteDatabase } from '../src/control/sqlite/database.js';
import { loadSqliteDriver, type SqliteDriver } from '../src/sqlite/index.js';
import { authenticatedCallMs } from './replicas.js';
import { QUICK, ratioLine } from './support/stats.js';
import { everyReadFromDatabase } from './support/uncached-db.js';

const ROUNDS = QUICK ? 3 : 7;

async function roundMs(driver: SqliteDriver, dir: string, round: number): Promise<number> {
  const db = await openSqliteDatabase(path.join(dir, `${driver.name.replace(':', '-')}-${round}.db`), driver);
  await db.migrate(CONTROL_NAMESPACE, CONTROL_MIGRATIONS);
  const control = new SqlControlPlane(everyReadFromDatabase(db));
  return authenticatedCallMs(control).finally(() => control.close());
}

export async function runSqliteDriversBench(): Promise<string> {
  const nodeSqlite = await loadSqliteDriver('node:sqlite');
  const betterSqlite = await loadSqliteDriver('better-sqlite3');
  if (!nodeSqlite || !betterSqlite) {
    return `Only ${(nodeSqlite ?? betterSqlite)?.name} serves on Node ${process.version}: nothing to compare (run on Node 22.16+)`;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'specbase-bench-sqlite-'));
  try {
    const measured: number[] = [];
    const baseline: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push((await roundMs(betterSqlite, dir, round)) * 1000);
      measured.push((await roundMs(nodeSqlite, dir, round)) * 1000);
    }
    return [
      `Control plane per authenticated call on SQLite, node:sqlite vs better-sqlite3 (baseline), ${ROUNDS} alternating rounds, Node ${process.version}`,
      ratioLine('node:sqlite', 'µs', measured, baseline),
    ].join('\n');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await runSqliteDriversBench());
}
