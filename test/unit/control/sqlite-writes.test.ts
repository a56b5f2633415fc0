import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openSqliteDatabase, type SqliteDatabase } from '../../../src/control/sqlite/database.js';
import { openSqlite, type SqliteConnection } from '../../../src/sqlite/index.js';
import { sqliteThread } from '../../../src/sqlite/sqlite-thread.js';

let dir: string;
let db: SqliteDatabase;
let other: SqliteConnection;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'specbase-sqlite-writes-'));
  const file = path.join(dir, 'control.db');
  db = await openSqliteDatabase(file);
  await db.run('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)');
  other = await openSqlite(file, { busyTimeoutMs: 1_000 });
});
afterEach(async () => {
  other.close();
  await db.close();
  await rm(dir, { recursive: true, force: true });
});

/** The longest pause between 5 ms timer ticks while `work` runs. */
async function longestPause<T>(work: () => Promise<T>): Promise<{ value: T; pauseMs: number }> {
  let last = performance.now();
  let pauseMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    pauseMs = Math.max(pauseMs, now - last);
    last = now;
  }, 5);
  try {
    return { value: await work(), pauseMs };
  } finally {
    clearInterval(ticker);
  }
}

it('waits for another writer off the event loop: requests keep being served meanwhile', async () => {
  // Another process holds the write lock for 400 ms, as a busy disk would hold a commit.
  other.exec('BEGIN IMMEDIATE');
  setTimeout(() => other.exec('COMMIT'), 400);
  const started = performance.now();
  const { value: changed, pauseMs } = await longestPause(() =>
    db.run('INSERT INTO notes (text) VALUES (?)', ['after the lock']),
  );
  expect(changed).toBe(1);
  expect(performance.now() - started).toBeGreaterThanOrEqual(350);
  expect(pauseMs).toBeLessThan(100);
  expect(await db.all('SELECT text FROM notes')).toEqual([{ text: 'after the lock' }]);
});

it('keeps a transaction whole across the thread, and reports a failed statement with its SQLite error', async () => {
  await db.run('INSERT INTO notes (text) VALUES (?)', ['first']);
  await expect(
    db.transaction(async (tx) => {
      await tx.run('INSERT INTO notes (text) VALUES (?)', ['inside']);
      expect(await tx.get('SELECT COUNT(*) AS n FROM notes')).toEqual({ n: 2 });
      // Reads outside the transaction do not see it before it commits.
      expect(await db.get('SELECT COUNT(*) AS n FROM notes')).toEqual({ n: 1 });
      await tx.run('INSERT INTO notes (text) VALUES (?)', ['first']);
    }),
  ).rejects.toThrow(/UNIQUE constraint failed: notes\.text/);
  expect(await db.all('SELECT text FROM notes ORDER BY id')).toEqual([{ text: 'first' }]);
  expect(await db.transaction(async (tx) => tx.run('INSERT INTO notes (text) VALUES (?)', ['second']))).toBe(1);
  expect(await db.all('SELECT text FROM notes ORDER BY id')).toEqual([{ text: 'first' }, { text: 'second' }]);
});

it('fails a transaction whole when the SQLite thread is lost in it, instead of committing its later statements alone', async () => {
  await expect(
    db.transaction(async (tx) => {
      await tx.run('INSERT INTO notes (text) VALUES (?)', ['first half']);
      await sqliteThread.terminate();
      await tx.run('INSERT INTO notes (text) VALUES (?)', ['second half']);
    }),
  ).rejects.toThrow(/the SQLite thread was lost during the transaction on .*control\.db: none of it was committed/);
  expect(other.prepare('SELECT text FROM notes').all()).toEqual([]);
  // The lost thread's connection let go of the write lock: the next transaction commits.
  expect(await db.transaction(async (tx) => tx.run('INSERT INTO notes (text) VALUES (?)', ['next']))).toBe(1);
  expect(other.prepare('SELECT text FROM notes').all()).toEqual([{ text: 'next' }]);
});
