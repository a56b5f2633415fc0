import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionOrganization } from '../../../src/app/provision.js';
import { openServices } from '../../../src/app/services.js';
import { loadConfig } from '../../../src/config/index.js';
import { ensureDemo, type DemoInfo } from '../../../src/demo/seed.js';
import { call } from '../mcp/clients.js';
import { ensureBuilt, loopbackServer, startMain, type Started } from '../startup/process.js';

/**
 * The built service with SPECBASE_MAX_OPEN_ORGS=20, touched by a search in each of 120
 * organizations one after another, as a hosted service's many small tenants would: descriptors
 * and memory stay those of the open set, and organizations closed on the way answer correctly
 * when touched again, one of them edited with native Git while it was closed.
 */
const ORGS = 120;
const MAX_OPEN = 20;

let dataDir: string;
let server: Started;
let baseUrl: string;
let demo: DemoInfo;
const orgs: { id: string; productId: string }[] = [];

const word = (i: number) => `kiwiword${i}x`;

beforeAll(async () => {
  await ensureBuilt();
  dataDir = await mkdtemp(path.join(tmpdir(), 'specbase-open-orgs-'));
  const services = await openServices(
    loadConfig({ SPECBASE_DATA_DIR: dataDir, SPECBASE_FSYNC: 'off', SPECBASE_LOG_LEVEL: 'silent' }),
  );
  try {
    demo = (await ensureDemo(services)).demo;
    const owner = (await services.control.users.byEmail(demo.userEmail))!;
    for (let i = 0; i < ORGS; i++) {
      const made = await provisionOrganization(services, {
        name: `Tenant ${i}`,
        owner,
        productBody: `# Tenant ${i}\n\nSells ${word(i)} widgets.\n`,
      });
      orgs.push({ id: made.org.id, productId: made.productId });
    }
  } finally {
    await services.close();
  }
  const served = await loopbackServer(dataDir, { SPECBASE_MAX_OPEN_ORGS: String(MAX_OPEN) });
  baseUrl = served.baseUrl;
  server = startMain(served.env);
  await server.waitFor('Specbase is running at', 'stdout', 60_000);
}, 240_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** A session of its own on the organization, ended (DELETE) after `work`: sessions held would be memory of their own. */
async function inSession<T>(orgId: string, work: (client: Client) => Promise<T>): Promise<T> {
  const transport = new StreamableHTTPClientTransport(new URL('/api/mcp/mcp', baseUrl), {
    requestInit: { headers: { Authorization: `Bearer ${demo.token}`, 'X-Organization-Id': orgId } },
  });
  const client = new Client({ name: 'open-orgs-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    return await work(client);
  } finally {
    await transport.terminateSession();
    await client.close();
  }
}

/** The ids a search of the organization finds. */
async function searchIn(orgId: string, query: string): Promise<string[]> {
  return inSession(orgId, async (client) => {
    const { data } = await call(client, 'specbase_search', { query });
    return (data.results as { id: string }[]).map((result) => result.id);
  });
}

async function usage(): Promise<{ fds: number; rssMb: number; open: number }> {
  const pid = server.child.pid!;
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const health = (await (await fetch(`${baseUrl}/healthz`)).json()) as { openOrganizations: number };
  return {
    fds: (await readdir(`/proc/${pid}/fd`)).length,
    rssMb: Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024,
    open: health.openOrganizations,
  };
}

describe(`${ORGS} organizations touched in turn with SPECBASE_MAX_OPEN_ORGS=${MAX_OPEN}`, () => {
  it('stays within the open set, and answers correctly for organizations closed on the way', async () => {
    const samples: Awaited<ReturnType<typeof usage>>[] = [];
    for (const [i, org] of orgs.entries()) {
      expect(await searchIn(org.id, word(i))).toEqual([org.productId]);
      if ((i + 1) % MAX_OPEN === 0) samples.push(await usage());
    }
    console.log(
      `after each ${MAX_OPEN} organizations: ${samples.map((s) => `${s.open} open, ${s.fds} fds, ${s.rssMb.toFixed(0)} MB`).join('; ')}`,
    );
    for (const sample of samples) expect(sample.open).toBeLessThanOrEqual(MAX_OPEN);
    // Five descriptors per organization open: 100 more organizations held would be 500 more.
    const settled = samples[1]!;
    for (const sample of samples.slice(2)) expect(sample.fds - settled.fds).toBeLessThan(30);
    // Memory: what 100 more organizations would hold (about 0.5 MB each) does not accumulate.
    expect(samples.at(-1)!.rssMb - settled.rssMb).toBeLessThan(40);

    // The first organization was closed long ago: native Git edits it meanwhile.
    const first = orgs[0]!;
    const gitdir = path.join(dataDir, 'orgs', `${first.id}.git`);
    const work = path.join(dataDir, 'clone');
    execFileSync('git', ['clone', '-q', gitdir, work]);
    const file = execFileSync('git', ['-C', work, 'ls-files'], { encoding: 'utf8' })
      .split('\n')
      .find((name) => name.endsWith('.md'))!;
    const text = await readFile(path.join(work, file), 'utf8');
    execFileSync('sh', ['-c', `cat > "${path.join(work, file)}"`], {
      input: text.replace(/\n---\n[\s\S]*$/, '\n---\n# Tenant 0\n\nNow sells mangoword gadgets.\n'),
    });
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', work, '-c', 'user.name=Native', '-c', 'user.email=native@example.com', ...args]);
    git('commit', '-qam', 'Edit by hand');
    git('push', '-q', 'origin', 'main');

    expect(await searchIn(first.id, 'mangoword')).toEqual([first.productId]);
    expect(await searchIn(first.id, word(0))).toEqual([]);
    const product = await inSession(first.id, async (client) => (await call(client, 'specbase_read_product')).data);
    expect(JSON.stringify(product)).toContain('Now sells mangoword gadgets.');
    // Others closed on the way answer as before.
    for (const i of [1, 50, 99]) expect(await searchIn(orgs[i]!.id, word(i))).toEqual([orgs[i]!.productId]);
    expect((await usage()).open).toBeLessThanOrEqual(MAX_OPEN);
  }, 300_000);
});
