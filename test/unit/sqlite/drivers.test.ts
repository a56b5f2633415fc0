import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  loadSqliteDriver,
  SQLITE_DRIVERS,
  sqliteDriver,
  transaction,
  type SqliteConnection,
  type SqliteDriver,
} from '../../../src/sqlite/index.js';

const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
/** node:sqlite has all we use from Node 22.16 on; before that (Node 20) better-sqlite3 serves. */
const expected = major > 22 || (major === 22 && minor >= 16) ? 'node:sqlite' : 'better-sqlite3';

it(`prefers ${expected} on Node ${process.version}`, async () => {
  expect((await sqliteDriver()).name).toBe(expected);
  expect(await loadSqliteDriver(expected)).toBeDefined();
});

it('never loads better-sqlite3 on Node 24 or later (it aborts there when a statement is collected)', async () => {
  if (major >= 24) expect(await loadSqliteDriver('better-sqlite3')).toBeUndefined();
  else expect(await loadSqliteDriver('better-sqlite3')).toBeDefined();
});

it('keeps stderr free of the node:sqlite ExperimentalWarning, and only of that one', () => {
  const script = `
    const { openSqlite } = await import('./src/sqlite/index.ts');
    (await openSqlite(':memory:', { busyTimeoutMs: 10 })).close();
    process.emitWarning('another experiment', 'ExperimentalWarning');`;
  const { stderr, status } = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  expect(status).toBe(0);
  expect(stderr).toContain('ExperimentalWarning: another experiment');
  expect(stderr).not.toMatch(/SQLite is an experimental feature/);
});

/** The same small contract for every driver this Node can load. */
describe.each(SQLITE_DRIVERS)('driver %s', (name) => {
  let driver: SqliteDriver | undefined;
  let dir: string;
  const opened: SqliteConnection[] = [];
  const open = (busyTimeoutMs = 5_000) => {
    const db = driver!.open(path.join(dir, 'test.db'), { busyTimeoutMs });
    opened.push(db);
    return db;
  };
  beforeEach(async (context) => {
    driver = await loadSqliteDriver(name);
    if (!driver) context.skip();
    dir = await mkdtemp(path.join(tmpdir(), 'specbase-sqlite-'));
  });
  afterEach(async () => {
    for (const db of opened.splice(0)) db.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('creates the file, binds positional values and reads rows back as plain values', () => {
    const db = open();
    expect(db.driver).toBe(name);
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, label TEXT, note TEXT); CREATE INDEX t_label ON t (label);');
    const insert = db.prepare('INSERT INTO t (id, label, note) VALUES (?, ?, ?)');
    expect(insert.run(1, 'one', null)).toBe(1);
    expect(insert.run(2, 'two', 'x')).toBe(1);
    expect(db.prepare('SELECT id, label, note FROM t ORDER BY id').all()).toEqual([
      { id: 1, label: 'one', note: null },
      { id: 2, label: 'two', note: 'x' },
    ]);
    expect(db.prepare('SELECT label FROM t WHERE id = ?').get(2)).toEqual({ label: 'two' });
    expect(db.prepare('SELECT label FROM t WHERE id = ?').get(3)).toBeUndefined();
    expect(db.prepare("UPDATE t SET note = 'y'").run()).toBe(2);
    expect(typeof db.prepare('SELECT count(*) AS n FROM t').get<{ n: unknown }>()?.n).toBe('number');
    expect(db.prepare('PRAGMA busy_timeout').get()).toEqual({ timeout: 5_000 });
  });

  it('commits a transaction that returns and rolls back one that throws', () => {
    const db = open();
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)');
    expect(db.inTransaction).toBe(false);
    expect(transaction(db, () => (db.prepare('INSERT INTO t VALUES (1)').run(), db.inTransaction))).toBe(true);
    expect(() =>
      transaction(db, () => {
        db.prepare('INSERT INTO t VALUES (2)').run();
        db.prepare('INSERT INTO t VALUES (1)').run();
      }),
    ).toThrow(/UNIQUE constraint failed/);
    expect(db.inTransaction).toBe(false);
    expect(db.prepare('SELECT id FROM t').all()).toEqual([{ id: 1 }]);
  });

  it('waits the busy timeout for another connection write lock, then fails', () => {
    const holder = open();
    holder.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (id INTEGER)');
    const waiter = open(50);
    holder.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    expect(() => transaction(waiter, () => waiter.prepare('INSERT INTO t VALUES (1)').run(), 'IMMEDIATE')).toThrow(
      /locked|busy/i,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    holder.exec('COMMIT');
    expect(transaction(waiter, () => waiter.prepare('INSERT INTO t VALUES (1)').run(), 'IMMEDIATE')).toBe(1);
  });

  it('closes once and says so; closing again is harmless', () => {
    const db = open();
    expect(db.isOpen).toBe(true);
    db.close();
    expect(db.isOpen).toBe(false);
    expect(() => db.close()).not.toThrow();
    expect(() => db.prepare('SELECT 1')).toThrow();
  });
});
