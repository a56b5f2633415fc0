import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { DemoInfo } from '../../../src/demo/seed.js';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.js';
import { ensureBuilt, freePort, startMain, type Started } from '../startup/process.js';

export const HAPROXY_CFG = path.resolve('deploy/haproxy.cfg');

/** The shipped HAProxy configuration with only its `bind` and `server` lines replaced. */
export async function renderHaproxyConfig(listenPort: number, replicaPorts: readonly number[]): Promise<string> {
  const shipped = await readFile(HAPROXY_CFG, 'utf8');
  const lines = shipped.split('\n');
  const firstServer = lines.findIndex((line) => /^\s+server\s/.test(line));
  if (firstServer < 0 || !lines.some((line) => /^\s+bind\s/.test(line)))
    throw new Error('deploy/haproxy.cfg lost its bind or server lines');
  const servers = replicaPorts.map((port, i) => `    server replica${i + 1} 127.0.0.1:${port}`);
  return lines
    .filter((line, i) => i === firstServer || !/^\s+server\s/.test(line))
    .flatMap((line) =>
      /^\s+server\s/.test(line) ? servers : [line.replace(/^(\s+bind\s+)\S+/, `$1127.0.0.1:${listenPort}`)],
    )
    .join('\n');
}

export interface Proxy {
  readonly url: string;
  stop(): Promise<void>;
}

/** HAProxy in the foreground on a loopback port, routing to the given replica ports. */
export async function startHaproxy(dir: string, listenPort: number, replicaPorts: readonly number[]): Promise<Proxy> {
  const file = path.join(dir, `haproxy-${listenPort}.cfg`);
  await writeFile(file, await renderHaproxyConfig(listenPort, replicaPorts));
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('error', (error) =>
      reject(
        new Error(`could not start haproxy (Debian: apt-get install haproxy; .ci/run does this): ${error.message}`),
      ),
    );
    child.once('spawn', resolve);
  });
  await spawned;
  const url = `http://127.0.0.1:${listenPort}`;
  await waitUntil(
    async () => {
      if (child.exitCode !== null) throw new Error(`haproxy exited: ${stderr}`);
      return (await fetch(`${url}/healthz`).catch(() => undefined))?.status === 200;
    },
    20_000,
    () => `haproxy never answered: ${stderr}`,
  );
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    },
  };
}

export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, why: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(why());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface Replica {
  readonly port: number;
  readonly url: string;
  process: Started;
}

/** PostgreSQL, one shared data directory, `count` replicas (`node dist/main.js`, caches of their own), HAProxy in front. */
export interface Cluster {
  readonly databaseUrl: string;
  readonly dataDir: string;
  readonly proxy: Proxy;
  readonly replicas: Replica[];
  readonly demo: DemoInfo;
  readonly gitdir: string;
  kill(index: number): Promise<void>;
  restart(index: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The index of the replica HAProxy sends an organization's MCP requests to (organization
 * affinity): any answer through the proxy names its replica (`X-Specbase-Replica: replicaN`).
 */
export async function replicaServing(cluster: Pick<Cluster, 'proxy'>, orgId: string): Promise<number> {
  const response = await fetch(`${cluster.proxy.url}/api/mcp/o/${orgId}/mcp`, { method: 'POST' });
  await response.body?.cancel();
  const name = response.headers.get('x-specbase-replica') ?? '';
  const match = /^replica(\d+)$/.exec(name);
  if (!match) throw new Error(`no replica named in the answer: ${JSON.stringify(name)}`);
  return Number(match[1]) - 1;
}

const BANNER = 'Specbase is running at';

export async function startCluster(count: number, extraEnv: Record<string, string> = {}): Promise<Cluster> {
  await ensureBuilt();
  const postgres: TestPostgres = await startTestPostgres();
  const work = await mkdtemp(path.join(os.tmpdir(), 'specbase-replicas-'));
  const dataDir = path.join(work, 'data');
  const databaseUrl = await postgres.freshDatabase();
  const proxyPort = await freePort();
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  // Each replica has caches of its own, as on machines of their own; a restart finds them again.
  const env = (port: number) => ({
    PORT: String(port),
    HOST: '127.0.0.1',
    SPECBASE_DATA_DIR: dataDir,
    SPECBASE_CACHE_DIR: path.join(work, `cache-${port}`),
    SPECBASE_DATABASE_URL: databaseUrl,
    SPECBASE_BASE_URL: `http://127.0.0.1:${proxyPort}`,
    SPECBASE_LOG_LEVEL: 'warn',
    // Every connection comes from HAProxy's address: the per-address cap belongs at the proxy.
    SPECBASE_MAX_CONNECTIONS_PER_ADDRESS: '0',
    ...extraEnv,
  });
  const replicas: Replica[] = ports.map((port) => ({
    port,
    url: `http://127.0.0.1:${port}`,
    process: startMain(env(port)),
  }));
  let proxy: Proxy | undefined;
  try {
    // Started together: migrations and the demo organization must still happen exactly once.
    await Promise.all(replicas.map((replica) => replica.process.waitFor(BANNER, 'stdout', 90_000)));
    proxy = await startHaproxy(work, proxyPort, ports);
  } catch (error) {
    for (const replica of replicas) replica.process.child.kill('SIGKILL');
    await postgres.stop();
    throw error;
  }
  const demo = JSON.parse(await readFile(path.join(dataDir, 'demo.json'), 'utf8')) as DemoInfo;
  return {
    databaseUrl,
    dataDir,
    proxy,
    replicas,
    demo,
    gitdir: path.join(dataDir, 'orgs', `${demo.orgId}.git`),
    async kill(index) {
      const replica = replicas[index]!;
      replica.process.child.kill('SIGKILL');
      await replica.process.exited;
    },
    async restart(index) {
      const replica = replicas[index]!;
      replica.process = startMain(env(replica.port));
      await replica.process.waitFor(BANNER, 'stdout', 90_000);
    },
    async close() {
      await proxy?.stop();
      await Promise.all(
        replicas.map(async (replica) => {
          if (replica.process.child.exitCode === null && replica.process.child.signalCode === null) {
            replica.process.child.kill('SIGTERM');
            await replica.process.exited;
          }
        }),
      );
      await postgres.stop();
      await rm(work, { recursive: true, force: true });
    },
  };
}

/** An SDK client over Streamable HTTP at `baseUrl` (the proxy or one replica), with the demo token. */
export async function connectMcp(baseUrl: string, demo: DemoInfo, name = 'replica-test'): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('/api/mcp/mcp', baseUrl), {
    requestInit: { headers: { Authorization: `Bearer ${demo.token}`, 'X-Organization-Id': demo.orgId } },
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return client;
}
