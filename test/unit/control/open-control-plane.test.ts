import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyMigrations, CONTROL_NAMESPACE } from '../../../src/control/index.js';
import { InvalidInputError } from '../../../src/errors.js';
import { controlFixture, type ControlFixture } from './fixture.js';

describe('openControlPlane', () => {
  let f: ControlFixture;
  beforeEach(async () => {
    f = await controlFixture();
  });
  afterEach(async () => f.cleanup());

  it('creates the file in WAL mode with foreign keys and a busy timeout', () => {
    expect(f.control.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(f.control.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(f.control.db.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('applies its migrations once and keeps data across a restart', async () => {
    const user = await f.control.users.upsert({ issuer: 'local', subject: 's1', email: 'A@Example.com', name: 'Ann' });
    await f.control.close();
    const again = await f.reopen();
    const again2 = await f.reopen();
    expect(await again.users.get(user.id)).toEqual(user);
    const versions = again2.db
      .prepare('SELECT version FROM schema_migrations WHERE namespace = ?')
      .pluck()
      .all(CONTROL_NAMESPACE);
    expect(versions).toEqual([1]);
  });

  it('close is idempotent', async () => {
    await f.control.close();
    await f.control.close();
    expect(f.control.db.open).toBe(false);
  });
});

describe('applyMigrations', () => {
  let f: ControlFixture;
  beforeEach(async () => {
    f = await controlFixture();
  });
  afterEach(async () => f.cleanup());

  const auth = [
    { version: 1, sql: 'CREATE TABLE auth_things (id TEXT PRIMARY KEY)' },
    { version: 2, sql: 'ALTER TABLE auth_things ADD COLUMN label TEXT' },
  ];

  it('keeps versions per namespace and applies only what is new', () => {
    expect(applyMigrations(f.control.db, 'auth', auth.slice(0, 1))).toEqual([1]);
    expect(applyMigrations(f.control.db, 'auth', auth)).toEqual([2]);
    expect(applyMigrations(f.control.db, 'auth', auth)).toEqual([]);
    f.control.db.prepare("INSERT INTO auth_things (id, label) VALUES ('x', 'y')").run();
    const other = new Database(f.file);
    try {
      expect(applyMigrations(other, 'auth', auth)).toEqual([]);
      expect(other.prepare('SELECT label FROM auth_things').pluck().get()).toBe('y');
    } finally {
      other.close();
    }
  });

  it('rolls back a failing migration entirely and records nothing', () => {
    const broken = [{ version: 1, sql: 'CREATE TABLE half (id TEXT); CREATE TABLE half (id TEXT);' }];
    expect(() => applyMigrations(f.control.db, 'broken', broken)).toThrow(/already exists/);
    const tables = f.control.db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").all();
    expect(tables).toEqual([]);
    expect(f.control.db.prepare("SELECT count(*) FROM schema_migrations WHERE namespace = 'broken'").pluck().get()).toBe(0);
  });

  it('rejects malformed migration lists', () => {
    expect(() => applyMigrations(f.control.db, 'x', [{ version: 0, sql: '' }])).toThrow(InvalidInputError);
    expect(() =>
      applyMigrations(f.control.db, 'x', [
        { version: 1, sql: '' },
        { version: 1, sql: '' },
      ]),
    ).toThrow(InvalidInputError);
    expect(() => applyMigrations(f.control.db, ' ', [])).toThrow(InvalidInputError);
  });
});
