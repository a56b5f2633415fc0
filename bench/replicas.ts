import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CONTROL_NAMESPACE, openControlPlane, SqlControlPlane } from '../src/control/index.js';
import { CONTROL_MIGRATIONS } from '../src/control/schema.js';
import { openSqliteDatabase } from '../src/control/sqlite/database.js';
import { startCluster, startHaproxy, type Cluster } from '../test/integration/replicas/cluster.js';
import { freePort } from '../test/integration/startup/process.js';
import { startTestPostgres } from '../test/support/postgres.js';
import { everyReadFromDatabase } from './support/uncached-db.js';

/**
 * Scale-out, measured in one run:
 * - MCP read and search throughput through HAProxy in front of 1, 2 and 3 replicas (one
 *   PostgreSQL, one data directory), as ratios to one replica reached directly;
 * - control-plane latency of what every authenticated MCP call asks of it (verify the personal
 *   access token, build the principal), PostgreSQL as a ratio to SQLite.
 * Replicas on one machine share its cores: the ratios show the cost of the proxy and of the
 * shared database, and scale-out only as far as the machine has idle cores.
 */
const CLIENTS = 12;
const WARMUP_MS = 1_000;
const MEASURE_MS = 4_000;
const CONTROL_CALLS = 1_000;

interface Throughput {
  readonly name: string;
  readonly perSecond: number;
}

async function clientsAt(baseUrl: string, cluster: Cluster): Promise<Client[]> {
  const headers = { Authorization: `Bearer ${cluster.demo.token}`, 'X-Organization-Id': cluster.demo.orgId };
  return Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const client = new Client({ name: 'bench', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL('/api/mcp/mcp', baseUrl), { requestInit: { headers } }),
      );
      return client;
    }),
  );
}

/** Every client calls in a closed loop; only calls started after the warm-up count. */
async function throughput(
  name: string,
  clients: Client[],
  tool: string,
  args: Record<string, unknown>,
): Promise<Throughput> {
  let calls = 0;
  const measureFrom = performance.now() + WARMUP_MS;
  const end = measureFrom + MEASURE_MS;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < end) {
        const began = performance.now();
        const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
        if (result.isError) throw new Error(`${tool} failed: ${JSON.stringify(result.content)}`);
        if (began >= measureFrom) calls++;
      }
    }),
  );
  return { name, perSecond: calls / (MEASURE_MS / 1000) };
}

async function readAndSearch(
  label: string,
  baseUrl: string,
  cluster: Cluster,
  capabilityId: string,
): Promise<[Throughput, Throughput]> {
  const clients = await clientsAt(baseUrl, cluster);
  try {
    return [
      await throughput(`${label} read`, clients, 'specbase_read_capability', { capabilityId }),
      await throughput(`${label} search`, clients, 'specbase_search', { query: 'delivery slot' }),
    ];
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
}

export async function runReplicasBench(): Promise<string> {
  const cluster = await startCluster(3);
  const lines = [
    `MCP through HAProxy, ${CLIENTS} concurrent clients, ${MEASURE_MS / 1000} s each after ${WARMUP_MS / 1000} s warm-up`,
  ];
  try {
    const probe = (await clientsAt(cluster.replicas[0]!.url, cluster))[0]!;
    const listed = (
      await probe.callTool({ name: 'specbase_list_capabilities', arguments: { productId: cluster.demo.productId } })
    ).structuredContent as { items: { id: string }[] };
    await probe.close();
    const capabilityId = listed.items[0]!.id;
    // Every replica compiles its hot paths and builds its search index before anything counts.
    for (const replica of cluster.replicas) await readAndSearch('warm-up', replica.url, cluster, capabilityId);
    const [baseRead, baseSearch] = await readAndSearch(
      '1 replica, direct',
      cluster.replicas[0]!.url,
      cluster,
      capabilityId,
    );
    const row = (m: Throughput, base: Throughput) =>
      `  ${m.name.padEnd(28)} ${m.perSecond.toFixed(0).padStart(6)} calls/s   ${(m.perSecond / base.perSecond).toFixed(2)}x`;
    lines.push(row(baseRead, baseRead), row(baseSearch, baseSearch));
    const work = await mkdtemp(path.join(os.tmpdir(), 'specbase-bench-haproxy-'));
    try {
      for (const count of [1, 2, 3]) {
        const proxy = await startHaproxy(
          work,
          await freePort(),
          cluster.replicas.slice(0, count).map((r) => r.port),
        );
        try {
          const [read, search] = await readAndSearch(
            `HAProxy, ${count} replica${count > 1 ? 's' : ''}`,
            proxy.url,
            cluster,
            capabilityId,
          );
          lines.push(row(read, baseRead), row(search, baseSearch));
        } finally {
          await proxy.stop();
        }
      }
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  } finally {
    await cluster.close();
  }
  return lines.join('\n');
}

/** Mean latency of one authenticated call's control-plane work, sequentially, after a warm-up. */
export async function authenticatedCallMs(control: SqlControlPlane): Promise<number> {
  const user = await control.users.upsert({
    issuer: 'local',
    subject: 'bench',
    email: 'bench@example.com',
    name: 'Bench',
  });
  const { org } = await control.orgs.create({ name: 'Bench' });
  await control.members.setOwner(org.id, user.id, true);
  const { secret } = await control.tokens.create({ userId: user.id, name: 'bench' });
  const once = async () => {
    const verified = await control.tokens.verify(secret);
    if (!verified || !(await control.members.principal(org.id, verified.user.id)))
      throw new Error('bench token refused');
  };
  for (let i = 0; i < 100; i++) await once();
  const began = performance.now();
  for (let i = 0; i < CONTROL_CALLS; i++) await once();
  return (performance.now() - began) / CONTROL_CALLS;
}

export async function runControlPlaneBench(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'specbase-bench-control-'));
  const postgres = await startTestPostgres();
  try {
    const raw = await openSqliteDatabase(path.join(dir, 'uncached.db'));
    await raw.migrate(CONTROL_NAMESPACE, CONTROL_MIGRATIONS);
    const uncached = new SqlControlPlane(everyReadFromDatabase(raw));
    const sqliteMs = await authenticatedCallMs(uncached).finally(() => uncached.close());
    const served = await openControlPlane({ file: path.join(dir, 'specbase.db') });
    const servedMs = await authenticatedCallMs(served).finally(() => served.close());
    const pg = await openControlPlane({ databaseUrl: await postgres.freshDatabase() });
    const pgMs = await authenticatedCallMs(pg).finally(() => pg.close());
    const row = (label: string, ms: number, note: string) =>
      `  ${label.padEnd(40)} ${(ms * 1000).toFixed(1).padStart(7)} µs   ${(ms / sqliteMs).toFixed(2)}x${note}`;
    return [
      `Control plane per authenticated call (verify token + principal), ${CONTROL_CALLS} sequential calls`,
      row('SQLite, read every time', sqliteMs, ''),
      row('SQLite as served (memo until a commit)', servedMs, ' (nothing commits meanwhile)'),
      row('PostgreSQL (reads every time)', pgMs, ' (loopback server)'),
    ].join('\n');
  } finally {
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await runReplicasBench());
  console.log(await runControlPlaneBench());
}
