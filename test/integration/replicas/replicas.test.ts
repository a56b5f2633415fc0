import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeInBrowser, HttpBrowser } from '../auth/browser.js';
import { auth, discoverFrom401, MemoryClientProvider } from '../auth/sdk-client.js';
import { call } from '../mcp/clients.js';
import { connectMcp, replicaServing, startCluster, waitUntil, type Cluster } from './cluster.js';

const git = promisify(execFile);
const REDIRECT = 'http://127.0.0.1:9/callback';

/**
 * A call whose replica dies while it streams the answer is resumed by the client on another
 * replica, which does not know its stream: it would wait out the SDK's 60 s request timeout.
 */
const CALL_OPTIONS = { timeout: 10_000 };

/** One writer: edits through HAProxy, and on a lost session (its replica died) starts a new one. */
class Writer {
  readonly acked: string[] = [];
  readonly refused: string[] = [];
  reconnects = 0;
  #client: Client | undefined;

  constructor(
    private readonly cluster: Cluster,
    readonly name: string,
  ) {}

  async edit(capabilityId: string, anchor: string, marker: string, tolerateLoss: boolean): Promise<void> {
    const patch = `@@\n ${anchor}\n+${marker}\n`;
    for (let attempt = 1; ; attempt++) {
      try {
        this.#client ??= await connectMcp(this.cluster.proxy.url, this.cluster.demo, this.name);
        const result = await this.#client.callTool(
          { name: 'specbase_edit_capability', arguments: { capabilityId, patch } },
          undefined,
          CALL_OPTIONS,
        );
        if (result.isError) {
          this.refused.push(`${marker}: ${JSON.stringify(result.content)}`);
          return;
        }
        this.acked.push(marker);
        return;
      } catch (error) {
        // The session is gone (its replica was killed): re-initialize through HAProxy. A 404
        // (unknown session, answered by another replica) or 503 (no replica took it) means the
        // edit was not made, so it is sent again; after any other failure (the replica died
        // mid-request) it may or may not have landed: not acknowledged, and not repeated.
        if (!tolerateLoss || attempt > 5) throw error;
        this.reconnects++;
        await this.#client?.close().catch(() => undefined);
        this.#client = undefined;
        if (/\b(404|503)\b/.test((error as Error).message)) continue;
        return;
      }
    }
  }

  async close(): Promise<void> {
    await this.#client?.close().catch(() => undefined);
  }
}

describe('three replicas behind HAProxy on one PostgreSQL and one data directory', () => {
  let cluster: Cluster;
  let reader: Client;
  let capabilities: { id: string; anchor: string }[];

  beforeAll(async () => {
    cluster = await startCluster(3);
    reader = await connectMcp(cluster.proxy.url, cluster.demo, 'reader');
    const listed = await call(reader, 'specbase_list_capabilities', { productId: cluster.demo.productId });
    capabilities = await Promise.all(
      (listed.data.items as { id: string }[]).slice(0, 3).map(async ({ id }) => {
        const { data } = await call(reader, 'specbase_read_capability', { capabilityId: id, mode: 'full' });
        return { id, anchor: String(data.content).split('\n')[0]! };
      }),
    );
    expect(capabilities).toHaveLength(3);
  }, 240_000);

  afterAll(async () => {
    await reader?.close().catch(() => undefined);
    await cluster?.close();
  }, 60_000);

  async function body(capabilityId: string): Promise<string> {
    const client = await connectMcp(cluster.proxy.url, cluster.demo, 'checker');
    try {
      return String((await call(client, 'specbase_read_capability', { capabilityId, mode: 'full' })).data.content);
    } finally {
      await client.close();
    }
  }

  async function fsck(): Promise<void> {
    const { stderr } = await git('git', ['--git-dir', cluster.gitdir, 'fsck', '--strict', '--no-dangling']);
    expect(stderr).not.toMatch(/error|missing|broken/i);
  }

  it('started together, they migrated once and made one demo organization', async () => {
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    try {
      expect((await db.query('SELECT count(*)::int AS n FROM organizations')).rows[0].n).toBe(1);
      const versions = await db.query('SELECT namespace, version FROM schema_migrations ORDER BY namespace, version');
      expect(versions.rows).toEqual([
        { namespace: 'auth', version: 1 },
        { namespace: 'auth', version: 2 },
        { namespace: 'auth', version: 3 },
        { namespace: 'auth', version: 4 },
        { namespace: 'control', version: 1 },
        { namespace: 'control', version: 2 },
        { namespace: 'control', version: 3 },
        { namespace: 'control', version: 4 },
        { namespace: 'control', version: 5 },
        { namespace: 'control', version: 6 },
        { namespace: 'control', version: 7 },
        { namespace: 'control', version: 8 },
      ]);
    } finally {
      await db.end();
    }
    for (const replica of cluster.replicas) expect((await fetch(`${replica.url}/healthz`)).status).toBe(200);
  });

  it('an MCP client completes OAuth through HAProxy, each step on whichever replica', async () => {
    const mcpUrl = `${cluster.proxy.url}/api/mcp/mcp`;
    const resourceMetadataUrl = await discoverFrom401(mcpUrl);
    const provider = new MemoryClientProvider(REDIRECT);
    expect(await auth(provider, { serverUrl: mcpUrl, resourceMetadataUrl })).toBe('REDIRECT');
    const callback = await authorizeInBrowser(new HttpBrowser(), provider.authorizationUrl!.href, {
      email: cluster.demo.userEmail,
      password: cluster.demo.password,
      redirectPrefix: REDIRECT,
    });
    const code = callback.searchParams.get('code')!;
    expect(await auth(provider, { serverUrl: mcpUrl, resourceMetadataUrl, authorizationCode: code })).toBe(
      'AUTHORIZED',
    );
    const client = new SdkClient({ name: 'oauth-client', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(mcpUrl), {
        authProvider: provider,
        requestInit: { headers: { 'X-Organization-Id': cluster.demo.orgId } },
      }),
    );
    // A session's requests all reach the replica that holds it, round-robin notwithstanding.
    for (let i = 0; i < 6; i++) {
      expect((await call(client, 'specbase_read_product', {})).data.id).toBe(cluster.demo.productId);
    }
    await client.close();
  });

  it('20 clients x 10 edits on one artifact plus edits on others: none refused, none lost, repository sound', async () => {
    const [hot, ...others] = capabilities;
    const writers = Array.from({ length: 20 }, (_, i) => new Writer(cluster, `writer-${i}`));
    const side = Array.from({ length: 4 }, (_, i) => new Writer(cluster, `side-${i}`));
    await Promise.all([
      ...writers.map(async (writer) => {
        for (let n = 0; n < 10; n++) await writer.edit(hot!.id, hot!.anchor, `${writer.name} edit ${n}`, false);
      }),
      ...side.map(async (writer, i) => {
        const target = others[i % others.length]!;
        for (let n = 0; n < 10; n++) await writer.edit(target.id, target.anchor, `${writer.name} edit ${n}`, false);
      }),
    ]);
    await Promise.all([...writers, ...side].map((writer) => writer.close()));
    expect([...writers, ...side].flatMap((writer) => writer.refused)).toEqual([]);
    const hotBody = await body(hot!.id);
    for (const writer of writers) for (const marker of writer.acked) expect(hotBody).toContain(`${marker}\n`);
    expect(writers.flatMap((writer) => writer.acked)).toHaveLength(200);
    for (const [i, writer] of side.entries()) {
      const text = await body(others[i % others.length]!.id);
      for (const marker of writer.acked) expect(text).toContain(`${marker}\n`);
    }
    await fsck();
  }, 300_000);

  it('a search on any replica finds an edit made on another within one second', async () => {
    const [target] = capabilities;
    const clients = await Promise.all(
      cluster.replicas.map((replica, i) => connectMcp(replica.url, cluster.demo, `direct-${i}`)),
    );
    try {
      for (const [from, writer] of clients.entries()) {
        const word = `zephyrword${from}x${Date.now().toString(36)}`;
        await call(writer, 'specbase_edit_capability', {
          capabilityId: target!.id,
          patch: `@@\n ${target!.anchor}\n+${word}\n`,
        });
        const edited = Date.now();
        await Promise.all(
          clients.map(async (searcher, to) => {
            if (to === from) return;
            // When the search that found it was asked: how long its answer then took is the
            // search's latency on a busy machine, not the time the edit took to reach the replica.
            let askedAt = edited;
            await waitUntil(
              async () => {
                askedAt = Date.now();
                const { data } = await call(searcher, 'specbase_search', { query: word });
                return (data.results as { id: string }[]).some((hit) => hit.id === target!.id);
              },
              1_000,
              () => `replica ${to + 1} did not find the edit made on replica ${from + 1} within 1 s`,
            );
            expect(askedAt - edited).toBeLessThanOrEqual(1_000);
          }),
        );
      }
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });

  it('SIGKILL of a replica mid-storm: clients re-initialize and carry on, every acknowledged edit is kept, the replica rejoins', async () => {
    const [hot, other] = capabilities;
    const writers = Array.from({ length: 12 }, (_, i) => new Writer(cluster, `storm-${i}`));
    let killed = false;
    const storm = Promise.all(
      writers.map(async (writer, i) => {
        const target = i % 3 === 0 ? other! : hot!;
        for (let n = 0; n < 15; n++) await writer.edit(target.id, target.anchor, `${writer.name} edit ${n}`, true);
      }),
    );
    await waitUntil(
      async () => writers.reduce((sum, w) => sum + w.acked.length, 0) >= 30,
      60_000,
      () => 'the storm never got going',
    );
    // The replica the organization's sessions are on: HAProxy places them by organization.
    const serving = await replicaServing(cluster, cluster.demo.orgId);
    await cluster.kill(serving);
    killed = true;
    await storm;
    await Promise.all(writers.map((writer) => writer.close()));
    expect(killed).toBe(true);
    expect(writers.flatMap((writer) => writer.refused)).toEqual([]);
    expect(writers.reduce((sum, w) => sum + w.reconnects, 0)).toBeGreaterThan(0);
    // Edits after the kill went through the surviving replicas.
    expect(writers.reduce((sum, w) => sum + w.acked.length, 0)).toBeGreaterThan(30 + 60);
    const texts = new Map([
      [hot!.id, await body(hot!.id)],
      [other!.id, await body(other!.id)],
    ]);
    for (const [i, writer] of writers.entries()) {
      const text = texts.get(i % 3 === 0 ? other!.id : hot!.id)!;
      for (const marker of writer.acked) expect(text).toContain(`${marker}\n`);
    }
    await fsck();

    await cluster.restart(serving);
    const rejoined = cluster.replicas[serving]!;
    expect((await fetch(`${rejoined.url}/healthz`)).status).toBe(200);
    const direct = await connectMcp(rejoined.url, cluster.demo, 'rejoined');
    const elsewhere = await connectMcp(
      cluster.replicas[(serving + 1) % cluster.replicas.length]!.url,
      cluster.demo,
      'elsewhere',
    );
    try {
      const word = `rejoinword${Date.now().toString(36)}`;
      await call(elsewhere, 'specbase_edit_capability', {
        capabilityId: hot!.id,
        patch: `@@\n ${hot!.anchor}\n+${word}\n`,
      });
      await waitUntil(
        async () => ((await call(direct, 'specbase_search', { query: word })).data.results as unknown[]).length > 0,
        1_000,
        () => 'the restarted replica does not follow commits of the others',
      );
    } finally {
      await direct.close();
      await elsewhere.close();
    }
  }, 300_000);
});
