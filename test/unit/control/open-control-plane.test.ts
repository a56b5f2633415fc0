import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyMigrations, CONTROL_NAMESPACE, type SqliteDatabase } from '../../../src/control/index.js';
import { InvalidInputError } from '../../../src/errors.js';
import { BACKENDS, controlBackend, type ControlFixture } from './fixture.js';

describe.each(BACKENDS)('openControlPlane (%s)', (backend) => {
  const backendOf = controlBackend(backend);
  let f: ControlFixture;
  beforeEach(async () => {
    f = await backendOf.fixture();
  });
  afterEach(async () => f.cleanup());

  it('applies its migrations once and keeps data across a restart', async () => {
    const user = await f.control.users.upsert({ issuer: 'local', subject: 's1', email: 'A@Example.com', name: 'Ann' });
    await f.control.close();
    const [again, again2] = await Promise.all([f.reopen(), f.reopen()]);
    expect(await again.users.get(user.id)).toEqual(user);
    const versions = await again2.db.all<{ version: number }>(
      'SELECT version FROM schema_migrations WHERE namespace = ?',
      [CONTROL_NAMESPACE],
    );
    expect(versions).toEqual([
      { version: 1 },
      { version: 2 },
      { version: 3 },
      { version: 4 },
      { version: 5 },
      { version: 6 },
      { version: 7 },
      { version: 8 },
    ]);
  });

  it('replicas opening a fresh database together apply each migration exactly once', async () => {
    const opened = await Promise.all(Array.from({ length: 4 }, () => f.reopen()));
    const migrations = {
      sqlite: [{ version: 1, sql: 'CREATE TABLE raced (id TEXT)' }],
      postgres: [{ version: 1, sql: 'CREATE TABLE raced (id TEXT)' }],
    };
    const applied = await Promise.all(opened.map((control) => control.db.migrate('raced', migrations)));
    expect(applied.flat()).toEqual([1]);
  });

  it('runs a transaction entirely or not at all', async () => {
    const failing = f.control.db.transaction(async (tx) => {
      await tx.run("INSERT INTO organizations (id, name, created_at) VALUES ('o1', 'Acme', 'now')");
      throw new Error('changed my mind');
    });
    await expect(failing).rejects.toThrow('changed my mind');
    expect(await f.control.db.get("SELECT id FROM organizations WHERE id = 'o1'")).toBeUndefined();
  });

  it('a statement issued while a transaction is open neither joins it nor sees its writes', async () => {
    let inside!: () => void;
    const opened = new Promise<void>((resolve) => (inside = resolve));
    const failing = f.control.db.transaction(async (tx) => {
      await tx.run("INSERT INTO organizations (id, name, created_at) VALUES ('o2', 'Acme', 'now')");
      inside();
      await new Promise((resolve) => setTimeout(resolve, 50));
      throw new Error('rolled back');
    });
    await opened;
    const outside = f.control.db.run(
      "INSERT INTO organizations (id, name, created_at) VALUES ('o3', 'Outside', 'now')",
    );
    const seen = f.control.db.all<{ id: string }>("SELECT id FROM organizations WHERE id IN ('o2', 'o3') ORDER BY id");
    await expect(failing).rejects.toThrow('rolled back');
    await outside;
    expect((await seen).map((row) => row.id)).not.toContain('o2');
    expect(await f.control.db.all("SELECT id FROM organizations WHERE id IN ('o2', 'o3') ORDER BY id")).toEqual([
      { id: 'o3' },
    ]);
  });

  it('says whether the database takes a write, and why not (as /healthz reports it)', async () => {
    expect(await f.control.writeProblem()).toBeUndefined();
    expect(await f.control.writeProblem()).toBeUndefined();
    if (backend !== 'sqlite') return;
    // Refused as SQLite refuses a write to a file it could open only for reading.
    await f.control.db.run('PRAGMA query_only = 1');
    expect(await f.control.writeProblem()).toBe(
      'the control database cannot be written: the server cannot write (read-only file system)',
    );
    await f.control.db.run('PRAGMA query_only = 0');
    expect(await f.control.writeProblem()).toBeUndefined();
  });

  it('close is idempotent', async () => {
    await f.control.close();
    await f.control.close();
    await expect(f.control.db.ping()).rejects.toThrow();
  });
});

describe('the SQLite file', () => {
  const backendOf = controlBackend('sqlite');
  let f: ControlFixture;
  beforeEach(async () => {
    f = await backendOf.fixture();
  });
  afterEach(async () => f.cleanup());
  const raw = () => (f.control.db as SqliteDatabase).handle;

  const pragma = (name: string) => Object.values(raw().prepare(`PRAGMA ${name}`).get() ?? {})[0];

  it('is in WAL mode with foreign keys and a busy timeout', () => {
    expect(pragma('journal_mode')).toBe('wal');
    expect(pragma('foreign_keys')).toBe(1);
    expect(pragma('busy_timeout')).toBe(5000);
  });

  const auth = [
    { version: 1, sql: 'CREATE TABLE auth_things (id TEXT PRIMARY KEY)' },
    { version: 2, sql: 'ALTER TABLE auth_things ADD COLUMN label TEXT' },
  ];

  it('keeps versions per namespace and applies only what is new', async () => {
    expect(applyMigrations(raw(), 'auth', auth.slice(0, 1))).toEqual([1]);
    expect(applyMigrations(raw(), 'auth', auth)).toEqual([2]);
    expect(applyMigrations(raw(), 'auth', auth)).toEqual([]);
    raw().prepare("INSERT INTO auth_things (id, label) VALUES ('x', 'y')").run();
    const other = ((await f.reopen()).db as SqliteDatabase).handle;
    expect(applyMigrations(other, 'auth', auth)).toEqual([]);
    expect(other.prepare('SELECT label FROM auth_things').get()).toEqual({ label: 'y' });
  });

  it('rolls back a failing migration entirely and records nothing', () => {
    const broken = [{ version: 1, sql: 'CREATE TABLE half (id TEXT); CREATE TABLE half (id TEXT);' }];
    expect(() => applyMigrations(raw(), 'broken', broken)).toThrow(/already exists/);
    const tables = raw().prepare("SELECT name FROM sqlite_master WHERE name = 'half'").all();
    expect(tables).toEqual([]);
    expect(raw().prepare("SELECT count(*) AS n FROM schema_migrations WHERE namespace = 'broken'").get()).toEqual({
      n: 0,
    });
  });

  it('rejects malformed migration lists', () => {
    expect(() => applyMigrations(raw(), 'x', [{ version: 0, sql: '' }])).toThrow(InvalidInputError);
    expect(() =>
      applyMigrations(raw(), 'x', [
        { version: 1, sql: '' },
        { version: 1, sql: '' },
      ]),
    ).toThrow(InvalidInputError);
    expect(() => applyMigrations(raw(), ' ', [])).toThrow(InvalidInputError);
  });
});

describe('PostgreSQL migrations', () => {
  const backendOf = controlBackend('postgres');
  let f: ControlFixture;
  beforeEach(async () => {
    f = await backendOf.fixture();
  });
  afterEach(async () => f.cleanup());

  it('roll back a failing migration entirely and record nothing', async () => {
    const broken = {
      sqlite: [],
      postgres: [{ version: 1, sql: 'CREATE TABLE half (id TEXT); CREATE TABLE half (id TEXT);' }],
    };
    await expect(f.control.db.migrate('broken', broken)).rejects.toThrow(/already exists/);
    expect(await f.control.db.get("SELECT 1 FROM pg_tables WHERE tablename = 'half'")).toBeUndefined();
    expect(await f.control.db.get("SELECT 1 FROM schema_migrations WHERE namespace = 'broken'")).toBeUndefined();
    await expect(f.control.db.migrate(' ', broken)).rejects.toThrow(InvalidInputError);
  });
});
