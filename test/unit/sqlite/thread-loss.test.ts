import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openSqlite, sqliteDriver, ThreadConnection } from '../../../src/sqlite/index.js';
import { sqliteThread } from '../../../src/sqlite/sqlite-thread.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'specbase-thread-loss-'));
  file = path.join(dir, 'notes.db');
  const db = await openSqlite(file, { busyTimeoutMs: 1_000 });
  db.exec('PRAGMA journal_mode = WAL; CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
  db.close();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The notes as another connection reads them from the file. */
async function notesInFile(): Promise<string[]> {
  const db = await openSqlite(file, { busyTimeoutMs: 1_000 });
  try {
    return db
      .prepare('SELECT text FROM notes ORDER BY id')
      .all<{ text: string }>()
      .map((row) => row.text);
  } finally {
    db.close();
  }
}

it('fails the write the lost thread had not answered, and reopens the connection on its next write', async () => {
  const { name: driver } = await sqliteDriver();
  const writer = await ThreadConnection.open({
    driver,
    file,
    busyTimeoutMs: 1_000,
    setup: 'PRAGMA synchronous = NORMAL;',
  });
  try {
    expect(await writer.run('INSERT INTO notes (text) VALUES (?)', ['before'])).toBe(1);
    // The write is posted a few microtasks later, once the stop has begun: the dying thread cannot answer it.
    const inFlight = writer.run('INSERT INTO notes (text) VALUES (?)', ['in flight']);
    await sqliteThread.terminate();
    await expect(inFlight).rejects.toThrow('the SQLite thread stopped (exit code 1)');

    expect(await writer.run('INSERT INTO notes (text) VALUES (?)', ['after'])).toBe(1);
    expect(await notesInFile()).toEqual(['before', 'after']);
  } finally {
    await writer.close();
  }
});
