import { execFileSync } from 'node:child_process';
import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callTool, initialize, startToolCall } from './rpc.js';
import { ensureBuilt, freePort, startMain, type Started } from './process.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
/** A graceful stop with nothing in flight must not wait for any grace period. */
const PROMPT_EXIT_MS = 3_000;

let root: string;
let dataDir: string;
const running = new Set<Started>();

beforeAll(async () => {
  await ensureBuilt();
  root = await mkdtemp(path.join(os.tmpdir(), 'specbase-start-'));
  dataDir = path.join(root, 'data');
});
afterEach(async () => {
  for (const started of running) {
    if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill('SIGKILL');
    await started.exited;
  }
  running.clear();
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}): Promise<Started & { port: number }> {
  const port = await freePort();
  const started = startMain({ SPECBASE_DATA_DIR: dataDir, PORT: String(port), ...env });
  running.add(started);
  await started.waitFor('Or as one command:');
  await started.waitFor('"msg":"listening"', 'stderr');
  return { ...started, port };
}

/** Sends SIGTERM and resolves with the exit code and how long the exit took. */
async function stop(started: Started): Promise<{ code: number | string; ms: number }> {
  const t0 = performance.now();
  started.child.kill('SIGTERM');
  const code = await started.exited;
  return { code, ms: performance.now() - t0 };
}

/** A start that need not print a demo: ready once it logs that it listens. */
async function startBare(dir: string, env: Record<string, string> = {}): Promise<Started & { port: number }> {
  const port = await freePort();
  const started = startMain({ SPECBASE_DATA_DIR: dir, PORT: String(port), ...env });
  running.add(started);
  await started.waitFor('"msg":"listening"', 'stderr');
  return { ...started, port };
}

/** Every file and directory under `dir` (itself included) whose mode lets anyone but its owner in. */
async function openToOthers(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (at: string) => {
    const stat = await lstat(at);
    if (!stat.isSymbolicLink() && (stat.mode & 0o077) !== 0)
      found.push(`${path.relative(dir, at) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const entry of await readdir(at)) await walk(path.join(at, entry));
  };
  await walk(dir);
  return found;
}

interface Banner {
  orgId: string;
  token: string;
  mcpUrl: string;
  sseUrl: string;
  configs: Record<string, any>[];
  oneLiner: string;
  tokenLiner: string;
}

function parseBanner(stdout: string): Banner {
  const field = (label: string) => new RegExp(`^\\s+${label}\\s+(\\S+)`, 'm').exec(stdout)?.[1] ?? '';
  const configs = [...stdout.matchAll(/^\{\n[\s\S]*?\n\}$/gm)].map((m) => JSON.parse(m[0]) as Record<string, any>);
  return {
    orgId: field('Organization id'),
    token: field('Demo access token'),
    mcpUrl: field('MCP Streamable HTTP'),
    sseUrl: field('MCP SSE'),
    configs,
    oneLiner: /^Or as one command:\s+(.+)$/m.exec(stdout)?.[1] ?? '',
    tokenLiner: /^With the access token instead of browser sign-in:\s+(.+)$/m.exec(stdout)?.[1] ?? '',
  };
}

const gitdirOf = (orgId: string) => path.join(dataDir, 'orgs', `${orgId}.git`);
const git = (orgId: string, ...args: string[]) =>
  execFileSync('git', ['--git-dir', gitdirOf(orgId), ...args], { encoding: 'utf8' }).trim();

describe('node dist/main.js with nothing configured but a data directory and a port', () => {
  let first: Banner;

  it('creates data/ and the demo organization, prints URLs, organization id and ready-to-paste configurations', async () => {
    const started = await start();
    const base = `http://localhost:${started.port}`;
    first = parseBanner(started.stdout());

    expect(first.orgId).toMatch(UUID);
    expect(first.mcpUrl).toBe(`${base}/api/mcp/mcp`);
    expect(first.sseUrl).toBe(`${base}/api/mcp/sse`);
    expect(first.token).toMatch(/^sbp_/);
    expect(started.stdout()).toMatch(/^\s+Demo sign-in\s+demo@example\.com \/ \S+$/m);
    expect(started.stdout()).toContain(
      'The password and token are printed this once; `npx specbase demo` shows them again.',
    );
    expect(first.configs).toEqual([
      { mcpServers: { specbase: { type: 'http', url: first.mcpUrl, headers: { 'X-Organization-Id': first.orgId } } } },
      { servers: { specbase: { type: 'http', url: first.mcpUrl, headers: { 'X-Organization-Id': first.orgId } } } },
      {
        mcpServers: {
          specbase: {
            command: 'npx',
            args: ['mcp-remote', first.mcpUrl, '--header', `X-Organization-Id:${first.orgId}`],
          },
        },
      },
    ]);
    // mcp-remote tries Streamable HTTP first: the /mcp URL connects without a failed round trip.
    expect(first.oneLiner).toBe(`npx mcp-remote ${first.mcpUrl} --header X-Organization-Id:${first.orgId}`);
    expect(first.tokenLiner).toBe(
      `npx mcp-remote ${first.mcpUrl} --header X-Organization-Id:${first.orgId} --header "Authorization:Bearer ${first.token}"`,
    );

    const health = await fetch(`http://127.0.0.1:${started.port}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({
      status: 'ok',
      droppedLogLines: 0,
      droppedAuditRows: 0,
      heldAuditRows: 0,
      openOrganizations: expect.any(Number),
      queuedWebhookEvents: 0,
      droppedWebhookEvents: 0,
    });

    const entries = await readdir(dataDir);
    expect(entries).toEqual(expect.arrayContaining(['specbase.db', 'orgs']));
    expect(await readdir(path.join(dataDir, 'orgs'))).toEqual([`${first.orgId}.git`]);
    expect(git(first.orgId, 'rev-parse', '--is-bare-repository')).toBe('true');

    // The printed URL, organization id and token are enough to talk MCP.
    const session = await initialize(first.mcpUrl, {
      'X-Organization-Id': first.orgId,
      Authorization: `Bearer ${first.token}`,
    });
    const product = await callTool(session, 'specbase_read_product', {});
    expect(product.url).toBe(`${base}/o/${first.orgId}/a/${product.id}`);

    const { code, ms } = await stop(started);
    expect(code).toBe(0);
    expect(ms).toBeLessThan(PROMPT_EXIT_MS);
  });

  it('a second start on the same directory reuses the organization and commits nothing', async () => {
    const commitsBefore = git(first.orgId, 'rev-list', '--all');
    const started = await start();
    const second = parseBanner(started.stdout());
    expect(second.orgId).toBe(first.orgId);
    // The password and the token were printed by the start that created them, and only there.
    expect(second.token).toBe('');
    expect(started.stdout()).not.toContain(first.token);
    expect(started.stdout()).toMatch(
      /^\s+Demo sign-in\s+demo@example\.com\s+\(password and access token: `npx specbase demo`\)$/m,
    );
    expect(started.stderr()).not.toContain('created the demo organization');
    expect(await readdir(path.join(dataDir, 'orgs'))).toEqual([`${first.orgId}.git`]);
    expect(git(first.orgId, 'rev-list', '--all')).toBe(commitsBefore);
    expect((await stop(started)).code).toBe(0);
  });

  it('creates the data directory, specbase.db, keys and repositories for its owner alone (0700 / 0600)', async () => {
    expect((await lstat(dataDir)).mode & 0o777).toBe(0o700);
    expect((await lstat(path.join(dataDir, 'specbase.db'))).mode & 0o777).toBe(0o600);
    expect((await lstat(gitdirOf(first.orgId))).mode & 0o777).toBe(0o700);
    expect(await openToOthers(dataDir)).toEqual([]);
  });

  it('creates no demo when the base URL is not a loopback address, nor when SPECBASE_DEMO=off', async () => {
    for (const [name, env, reason] of [
      [
        'public',
        { SPECBASE_BASE_URL: 'https://specs.example.com' },
        'the base URL https://specs.example.com is not a loopback address',
      ],
      ['off', { SPECBASE_DEMO: 'off' }, 'SPECBASE_DEMO is off'],
    ] as const) {
      const dir = path.join(root, `no-demo-${name}`);
      const started = await startBare(dir, env);
      expect(started.stdout()).toContain(`No demo organization: ${reason}`);
      expect(started.stdout()).not.toMatch(/sbp_|Demo sign-in/);
      expect(await readdir(path.join(dir, 'orgs'))).toEqual([]);
      expect(await readdir(dir)).not.toContain('demo.json');
      const health = await fetch(`http://127.0.0.1:${started.port}/healthz`);
      expect(health.status).toBe(200);
      expect((await stop(started)).code).toBe(0);
    }
  });

  it('SIGTERM while an edit is in flight lets it finish and commit, then exits 0 promptly', async () => {
    const started = await start();
    const session = await initialize(first.mcpUrl.replace(/:\d+\//, `:${started.port}/`), {
      'X-Organization-Id': first.orgId,
      Authorization: `Bearer ${first.token}`,
    });
    const product = await callTool(session, 'specbase_read_product', {});
    const { items } = await callTool(session, 'specbase_list_capabilities', { productId: product.id });
    const capability = await callTool(session, 'specbase_read_capability', { capabilityId: items[0].id, mode: 'full' });
    const firstLine = (capability.content as string).split('\n')[0];
    const patch = ['@@', ` ${firstLine}`, '+', '+Edited while the server was stopping.', ''].join('\n');

    const edit = startToolCall(session, 'specbase_edit_capability', {
      capabilityId: capability.id,
      patch,
      baseVersion: capability.version,
    });
    // The request line and headers are on the wire; give the server a moment to take them in.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopping = stop(started);
    await started.waitFor('shutting down', 'stderr');
    expect(started.child.exitCode).toBeNull();
    edit.finish();

    const edited = await edit.result;
    const { code, ms } = await stopping;
    expect(code).toBe(0);
    expect(ms).toBeLessThan(PROMPT_EXIT_MS);
    expect(git(first.orgId, 'rev-parse', 'main')).toBe(edited.version);
    expect(git(first.orgId, 'log', '-1', '--format=%an%n%B', 'main')).toMatch(/^Demo Owner\n/);
    expect(git(first.orgId, 'show', '--format=', 'main')).toContain('+Edited while the server was stopping.');
  });

  // Open event streams (the Streamable HTTP GET stream, the legacy SSE stream) must not hold the
  // server for the whole grace period (what `docker stop` waits before SIGKILL).
  it('SIGTERM with assistants connected over both transports and a 2026-07-28 listen stream (open event streams) exits 0 promptly', async () => {
    const started = await start();
    const headers = { 'X-Organization-Id': first.orgId, Authorization: `Bearer ${first.token}` };
    const local = (route: string) => new URL(route, `http://127.0.0.1:${started.port}`);
    const streamable = new Client({ name: 'connected-streamable', version: '1' });
    await streamable.connect(new StreamableHTTPClientTransport(local('/api/mcp/mcp'), { requestInit: { headers } }));
    const sse = new Client({ name: 'connected-sse', version: '1' });
    await sse.connect(
      new SSEClientTransport(local('/api/mcp/sse'), {
        requestInit: { headers },
        eventSourceInit: {
          fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as object), ...headers } }),
        },
      }),
    );
    const modern = new ModernClient(
      { name: 'connected-2026', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await modern.connect(new ModernTransport(local('/api/mcp/mcp'), { requestInit: { headers } }));
    // A 2026-07-28 subscriptions/listen stream: the same open stream in the stateless era.
    const listening = await modern.listen({ resourceSubscriptions: [`specbase://o/${first.orgId}/artifact/none`] });
    await Promise.all([streamable.ping(), sse.ping()]);
    try {
      const { code, ms } = await stop(started);
      expect(code).toBe(0);
      expect(ms).toBeLessThan(PROMPT_EXIT_MS);
    } finally {
      await Promise.allSettled([streamable.close(), sse.close(), listening.close(), modern.close()]);
    }
  });

  it('SPECBASE_BASE_URL makes the printed URLs public', async () => {
    const started = await start({ SPECBASE_BASE_URL: 'https://specs.example.com' });
    const banner = parseBanner(started.stdout());
    expect(banner.mcpUrl).toBe('https://specs.example.com/api/mcp/mcp');
    expect(banner.sseUrl).toBe('https://specs.example.com/api/mcp/sse');
    const printed = started.stdout().match(/https?:\/\/[^\s"]+/g) ?? [];
    expect(printed.length).toBeGreaterThan(5);
    expect(printed.filter((url) => !/^https:\/\/specs\.example\.com(\/|$)/.test(url))).toEqual([]);
    expect((await stop(started)).code).toBe(0);
  });

  it.each([['not-a-port'], ['70000'], ['-1']])('PORT=%s exits non-zero with a configuration error', async (port) => {
    const started = startMain({ SPECBASE_DATA_DIR: path.join(root, 'never'), PORT: port });
    running.add(started);
    const code = await started.exited;
    expect(code).not.toBe(0);
    expect(typeof code).toBe('number');
    expect(started.stderr()).toMatch(/^specbase: invalid configuration: PORT: /m);
    expect(started.stderr()).not.toMatch(/\n\s+at /);
    expect(started.stdout()).toBe('');
  });

  it('a port another process holds: exits 1 saying so and how to choose another, without a stack trace', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    try {
      const port = (holder.address() as AddressInfo).port;
      const started = startMain({ SPECBASE_DATA_DIR: path.join(root, 'busy'), PORT: String(port), HOST: '127.0.0.1' });
      running.add(started);
      expect(await started.exited).toBe(1);
      expect(started.stderr()).toMatch(
        new RegExp(
          `^specbase: port ${port} on 127\\.0\\.0\\.1 is already in use by another process: .*PORT=<port>$`,
          'm',
        ),
      );
      expect(started.stderr()).not.toMatch(/\n\s+at /);
      expect(started.stdout()).toBe('');
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });
});
