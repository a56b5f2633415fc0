import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServices, type Services } from '../../../src/app/services.js';
import { loadConfig } from '../../../src/config/index.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.js';
import { call, connect } from '../mcp/clients.js';
import { waitUntil } from './cluster.js';

const exec = promisify(execFile);

/** One replica (the harness) on PostgreSQL, and a second process's services on the same data. */
describe('a replica on PostgreSQL', () => {
  let postgres: TestPostgres;
  let databaseUrl: string;
  let h: Harness;
  let other: Services;

  beforeAll(async () => {
    postgres = await startTestPostgres();
    databaseUrl = await postgres.freshDatabase();
    h = await startHarness({ env: { SPECBASE_DATABASE_URL: databaseUrl } });
    other = await openServices(loadConfig({ SPECBASE_DATA_DIR: h.dataDir, SPECBASE_DATABASE_URL: databaseUrl, PORT: '0' }));
  });
  afterAll(async () => {
    await other?.close();
    await h?.close();
    await postgres?.stop();
  });

  const health = async () => {
    const response = await fetch(`${h.baseUrl}/healthz`);
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  };

  it('finds by search, within a second, a commit made by another process on the same data', async () => {
    const client = await connect(h, 'owner');
    try {
      const word = `quokka${Date.now().toString(36)}`;
      const before = await other.store.read(h.orgId, h.productId);
      await other.store.update(h.orgId, h.productId, { body: `${before.body}\n${word}\n`, verb: 'edit' }, {
        author: { name: 'Other Replica', email: 'other@example.com' },
        client: 'test',
      });
      await waitUntil(
        async () => ((await call(client, 'specbase_search', { query: word })).data.results as { id: string }[]).some((hit) => hit.id === h.productId),
        1_000,
        () => 'the search did not follow the other process within 1 s',
      );
    } finally {
      await client.close();
    }
  });

  it('the CLI takes --database-url: what it writes is what the replica sees', async () => {
    const email = `cli-${Date.now()}@example.com`;
    await exec(process.execPath, [path.resolve('bin/specbase.js'), 'user', 'add', '--email', email, '--name', 'Cli User', '--password', 'cli-password-1',
      '--data-dir', h.dataDir, '--database-url', databaseUrl, '--json'], { env: { ...process.env, SPECBASE_LOG_LEVEL: 'silent' } });
    expect(await h.services.control.users.byEmail(email)).toMatchObject({ email, name: 'Cli User' });
    const refused = await exec(process.execPath, [path.resolve('bin/specbase.js'), 'init', '--database-url', 'mysql://nope', '--data-dir', h.dataDir])
      .then(() => undefined, (error: { code: number; stderr: string }) => error);
    expect(refused?.code).toBe(1);
    expect(refused?.stderr).toMatch(/SPECBASE_DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/);
  });

  it('/healthz is 200 when ready, 503 with the reason while the database is unreachable, 200 again after', async () => {
    expect(await health()).toMatchObject({ status: 200, body: { status: 'ok' } });
    await postgres.setReachable(databaseUrl, false);
    try {
      const down = await health();
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ status: 'unavailable', reason: expect.stringMatching(/database unreachable|not listening/) });
    } finally {
      await postgres.setReachable(databaseUrl, true);
    }
    await waitUntil(async () => (await health()).status === 200, 10_000, () => 'the replica did not become ready again');
  });
});
