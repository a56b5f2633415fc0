import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../support/free-port.js';
import { startHaproxy, waitUntil, type Proxy } from './cluster.js';

/**
 * The shipped HAProxy configuration in front of three stand-in replicas that answer with their
 * name: every form that names an organization reaches the same replica for it, organizations
 * spread over the replicas, and when one goes down only its organizations move.
 */
let work: string;
let proxy: Proxy;
const replicas: { name: string; port: number; server: Server }[] = [];

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'specbase-affinity-'));
  for (const name of ['replica1', 'replica2', 'replica3']) {
    const port = await freePort();
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(name));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    replicas.push({ name, port, server });
  }
  proxy = await startHaproxy(
    work,
    await freePort(),
    replicas.map((replica) => replica.port),
  );
});

afterAll(async () => {
  await proxy?.stop();
  await Promise.all(replicas.map((replica) => new Promise((resolve) => replica.server.close(resolve))));
  await rm(work, { recursive: true, force: true });
});

/**
 * The replica a request goes to. A connection cut as a replica stops fails the request under
 * way; it is sent again, as a client would.
 */
async function replicaFor(urlPath: string, headers: Record<string, string> = {}): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await (await fetch(`${proxy.url}${urlPath}`, { headers })).text();
    } catch (error) {
      if (attempt === 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Where each form naming the organization goes; all of them must agree. */
async function routesOf(orgId: string): Promise<string[]> {
  return Promise.all([
    replicaFor('/api/mcp/mcp', { 'X-Organization-Id': orgId }),
    replicaFor('/api/mcp/mcp', { 'X-Organization-Id': orgId.toUpperCase() }),
    replicaFor(`/api/mcp/o/${orgId}/mcp`),
    replicaFor(`/api/mcp/o/${orgId}/sse`),
    replicaFor(`/git/${orgId}.git/info/refs?service=git-upload-pack`),
    replicaFor(`/git/${orgId}.git/git-upload-pack`),
    replicaFor(`/o/${orgId}/a/${randomUUID()}`),
  ]);
}

describe('organization affinity in deploy/haproxy.cfg', () => {
  // Fixed ids, so that how evenly they spread is the same on every run.
  const orgs = Array.from({ length: 30 }, (_, n) => {
    const hex = createHash('sha1').update(`affinity-${n}`).digest('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  });
  const placed = new Map<string, string>();

  it('sends every request naming an organization to one replica, and spreads organizations over all three', async () => {
    for (const orgId of orgs) {
      const routes = await routesOf(orgId);
      expect(new Set(routes).size, `${orgId}: ${routes.join(', ')}`).toBe(1);
      placed.set(orgId, routes[0]!);
    }
    const counts = Object.fromEntries(
      replicas.map((r) => [r.name, [...placed.values()].filter((name) => name === r.name).length]),
    );
    console.log(`30 organizations placed: ${JSON.stringify(counts)}`);
    for (const count of Object.values(counts)) expect(count).toBeGreaterThanOrEqual(6);
    // Requests naming no organization go round-robin.
    const unnamed = await Promise.all(Array.from({ length: 6 }, () => replicaFor('/healthz')));
    expect(new Set(unnamed).size).toBe(3);
  });

  it('moves only the organizations of a replica that went down, and brings them back when it returns', async () => {
    const down = replicas[1]!;
    await new Promise((resolve) => down.server.close(resolve));
    down.server.closeAllConnections();
    // Until HAProxy marks it down (two failed checks a second apart), a request for one of its
    // organizations is redispatched to any replica; from then on, to the next one on the ring.
    const sweep = () => Promise.all(orgs.map((orgId) => replicaFor('/api/mcp/mcp', { 'X-Organization-Id': orgId })));
    let previous: string[] = [];
    await waitUntil(
      async () => {
        const now = await sweep();
        const settled =
          now.every((name) => name !== down.name && /^replica\d$/.test(name)) && now.join() === previous.join();
        previous = now;
        if (!settled) await new Promise((resolve) => setTimeout(resolve, 500));
        return settled;
      },
      15_000,
      () => `routing did not settle without ${down.name}: ${previous.join(', ')}`,
    );
    for (const [i, orgId] of orgs.entries()) {
      if (placed.get(orgId) === down.name) expect(previous[i]).not.toBe(down.name);
      else expect(previous[i], orgId).toBe(placed.get(orgId));
    }
    down.server = createServer((_req, res) => res.writeHead(200).end(down.name));
    await new Promise<void>((resolve) => down.server.listen(down.port, '127.0.0.1', resolve));
    await waitUntil(
      async () =>
        (await replicaFor('/api/mcp/mcp', {
          'X-Organization-Id': [...placed].find(([, name]) => name === down.name)![0],
        })) === down.name,
      10_000,
      () => `${down.name} never came back`,
    );
    for (const orgId of orgs)
      expect(await replicaFor('/api/mcp/mcp', { 'X-Organization-Id': orgId })).toBe(placed.get(orgId));
  });
});
