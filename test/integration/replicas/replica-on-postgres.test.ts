import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServices, type Services } from '../../../src/app/services.js';
import { loadConfig } from '../../../src/config/index.js';
import { runCli } from '../../support/cli.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.js';
import { call, connect } from '../mcp/clients.js';
import { waitUntil } from './cluster.js';

const exec = promisify(execFile);

type McpClient = Awaited<ReturnType<typeof connect>>;

/** Waits until a search for `word` lists artifact `id`, failing with `what` after `withinMs`. */
const searchFinds = (client: McpClient, word: string, id: string, withinMs: number, what: string) =>
  waitUntil(
    async () =>
      ((await call(client, 'specbase_search', { query: word })).data.results as { id: string }[]).some(
        (hit) => hit.id === id,
      ),
    withinMs,
    () => what,
  );

/** One replica (the harness) on PostgreSQL, and a second process's services on the same data. */
describe('a replica on PostgreSQL', () => {
  let postgres: TestPostgres;
  let databaseUrl: string;
  let h: Harness;
  let other: Services;
  let otherCache: string;

  beforeAll(async () => {
    postgres = await startTestPostgres();
    databaseUrl = await postgres.freshDatabase();
    h = await startHarness({ env: { SPECBASE_DATABASE_URL: databaseUrl } });
    otherCache = path.join(h.dataDir, 'other-replica-cache');
    other = await openServices(
      loadConfig({
        SPECBASE_DATA_DIR: h.dataDir,
        SPECBASE_CACHE_DIR: otherCache,
        SPECBASE_DATABASE_URL: databaseUrl,
        PORT: '0',
      }),
    );
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
      await other.store.update(
        h.orgId,
        h.productId,
        { body: `${before.body}\n${word}\n`, verb: 'edit' },
        {
          author: { name: 'Other Replica', email: 'other@example.com' },
          client: 'test',
        },
      );
      await searchFinds(client, word, h.productId, 1_000, 'the search did not follow the other process within 1 s');
    } finally {
      await client.close();
    }
  });

  it('keeps the caches of each process in a directory of its own, and none in the shared repository', async () => {
    // The other process opened the organization in the test before: its first save comes a few seconds later.
    await expect
      .poll(() => existsSync(path.join(otherCache, 'orgs', h.orgId, 'state.db')), { timeout: 15_000 })
      .toBe(true);
    expect(existsSync(path.join(h.services.store.cacheDir(h.orgId), 'state.db'))).toBe(true);
    expect(h.services.store.cacheDir(h.orgId).startsWith(otherCache)).toBe(false);
    const inRepository = path.join(h.gitdir, 'specbase');
    expect(existsSync(inRepository) ? readdirSync(inRepository).filter((name) => name !== 'staging') : []).toEqual([]);
  });

  it('finds by search, within a few seconds, a commit made with native git on the shared repository', async () => {
    const client = await connect(h, 'owner');
    try {
      const word = `numbat${Date.now().toString(36)}`;
      const gitdir = h.services.store.gitdir(h.orgId);
      const git = async (args: string[], input?: string) => {
        const child = execFile('git', ['--git-dir', gitdir, ...args], { encoding: 'utf8' });
        if (input !== undefined) child.stdin!.end(input);
        return new Promise<string>((resolve, reject) => {
          let out = '';
          child.stdout!.on('data', (chunk: string) => (out += chunk));
          child.on('error', reject);
          child.on('exit', (code) =>
            code === 0 ? resolve(out.trim()) : reject(new Error(`git ${args.join(' ')} exited ${code}`)),
          );
        });
      };
      const productPath = (await git(['ls-tree', '--name-only', 'main', 'product.md'])) || 'product.md';
      const text = await git(['show', `main:${productPath}`]);
      const blob = await git(['hash-object', '-w', '--stdin'], `${text}\n${word}\n`);
      const index = path.join(h.dataDir, 'native-index');
      const env = { ...process.env, GIT_INDEX_FILE: index };
      await exec('git', ['--git-dir', gitdir, 'read-tree', 'main'], { env });
      await exec('git', ['--git-dir', gitdir, 'update-index', '--cacheinfo', `100644,${blob},${productPath}`], { env });
      const tree = (await exec('git', ['--git-dir', gitdir, 'write-tree'], { env })).stdout.trim();
      const identity = {
        GIT_AUTHOR_NAME: 'Native',
        GIT_AUTHOR_EMAIL: 'native@example.com',
        GIT_COMMITTER_NAME: 'Native',
        GIT_COMMITTER_EMAIL: 'native@example.com',
      };
      const commit = (
        await exec('git', ['--git-dir', gitdir, 'commit-tree', tree, '-p', 'main', '-m', 'Edit product by hand'], {
          env: { ...env, ...identity },
        })
      ).stdout.trim();
      await exec('git', ['--git-dir', gitdir, 'update-ref', 'refs/heads/main', commit]);
      await searchFinds(client, word, h.productId, 5_000, 'the search did not follow a native git commit within 5 s');
    } finally {
      await client.close();
    }
  });

  it('holds at most SPECBASE_DATABASE_POOL_SIZE connections and one that listens, however many requests run at once', async () => {
    const url = new URL(databaseUrl);
    url.searchParams.set('application_name', 'pool-probe');
    const probe = await openServices(
      loadConfig({
        SPECBASE_DATA_DIR: h.dataDir,
        SPECBASE_CACHE_DIR: path.join(h.dataDir, 'probe-cache'),
        SPECBASE_DATABASE_URL: url.href,
        SPECBASE_DATABASE_POOL_SIZE: '3',
      }),
    );
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      const connections = async () =>
        (
          await admin.query<{ query: string }>(
            "SELECT query FROM pg_stat_activity WHERE application_name = 'pool-probe'",
          )
        ).rows.map((row) => row.query);
      let most = 0;
      const busy = Promise.all(Array.from({ length: 60 }, () => probe.control.orgs.list()));
      for (let i = 0; i < 5; i++) most = Math.max(most, (await connections()).length);
      await busy;
      await probe.store.update(
        h.orgId,
        h.productId,
        { body: `${(await probe.store.read(h.orgId, h.productId)).body}\npool\n`, verb: 'edit' },
        {
          author: { name: 'Probe', email: 'probe@example.com' },
          client: 'test',
        },
      );
      const open = await connections();
      most = Math.max(most, open.length);
      expect(most).toBeLessThanOrEqual(3 + 1);
      expect(open.filter((query) => /^LISTEN /i.test(query))).toHaveLength(1);
    } finally {
      await admin.end();
      await probe.close();
    }
  });

  it('the CLI takes --database-url: what it writes is what the replica sees', async () => {
    const email = `cli-${Date.now()}@example.com`;
    await runCli(
      [
        'user',
        'add',
        '--email',
        email,
        '--name',
        'Cli User',
        '--password',
        'cli-password-1',
        '--data-dir',
        h.dataDir,
        '--database-url',
        databaseUrl,
        '--json',
      ],
      { ...process.env, SPECBASE_LOG_LEVEL: 'silent' },
    );
    expect(await h.services.control.users.byEmail(email)).toMatchObject({ email, name: 'Cli User' });
    const refused = await runCli(['init', '--database-url', 'mysql://nope', '--data-dir', h.dataDir]).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused?.code).toBe(1);
    expect(refused?.stderr).toMatch(/SPECBASE_DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/);
  });

  it('/healthz is 200 when ready, 503 with the reason while the database is unreachable, 200 again after', async () => {
    expect(await health()).toMatchObject({ status: 200, body: { status: 'ok' } });
    await postgres.setReachable(databaseUrl, false);
    try {
      const down = await health();
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({
        status: 'unavailable',
        reason: expect.stringMatching(/database unreachable|not listening/),
      });
    } finally {
      await postgres.setReachable(databaseUrl, true);
    }
    await waitUntil(
      async () => (await health()).status === 200,
      10_000,
      () => 'the replica did not become ready again',
    );
  });
});
