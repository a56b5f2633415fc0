import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git as bareGit } from '../../support/git.js';
import { GitCli } from '../git-http/git-cli.js';
import { call, callAny } from '../mcp/clients.js';
import { connectMcp, startCluster, type Cluster } from './cluster.js';

/** A v2 client pinned to 2026-07-28 at `baseUrl`, noting which replica answered each request. */
async function connectModern(
  cluster: Cluster,
  baseUrl: string,
  served: string[] = [],
  headers: Record<string, string> = {},
): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('/api/mcp/mcp', baseUrl), {
    requestInit: {
      headers: { Authorization: `Bearer ${cluster.demo.token}`, 'X-Organization-Id': cluster.demo.orgId, ...headers },
    },
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      const replica = response.headers.get('x-specbase-replica');
      if (replica) served.push(replica);
      return response;
    },
  });
  const client = new Client(
    { name: 'modern-replica-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport);
  return client;
}

describe('the 2026-07-28 era behind HAProxy', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster(2);
  }, 240_000);
  afterAll(async () => {
    await cluster?.close();
  }, 60_000);

  it("spreads a modern client's calls round-robin over the replicas, each succeeding; a 2025 session stays on its replica", async () => {
    const served: string[] = [];
    const modern = await connectModern(cluster, cluster.proxy.url, served);
    try {
      served.length = 0;
      for (let i = 0; i < 8; i++) {
        const result = (await modern.callTool({ name: 'specbase_read_product', arguments: {} })) as CallToolResult;
        expect(result.isError).toBeFalsy();
        expect((result.structuredContent as { id: string }).id).toBe(cluster.demo.productId);
      }
      expect(new Set(served)).toEqual(new Set(['replica1', 'replica2']));
    } finally {
      await modern.close();
    }

    const legacy = await connectMcp(cluster.proxy.url, cluster.demo, 'legacy-replica-test');
    try {
      for (let i = 0; i < 4; i++)
        expect((await call(legacy, 'specbase_read_product')).data.id).toBe(cluster.demo.productId);
    } finally {
      await legacy.close();
    }
  });

  it('any replica serves a change request: proposals made through both, read back through both', async () => {
    const served: string[] = [];
    const proposer = await connectModern(cluster, cluster.proxy.url, served, { 'X-Specbase-Change-Request': 'new' });
    try {
      const capabilityId = (
        await callAny(proposer, 'specbase_list_capabilities', { productId: cluster.demo.productId })
      ).data.items[0].id as string;
      const feature = await callAny(proposer, 'specbase_create_feature', {
        capabilityId,
        title: 'Proposed on replicas',
      });
      const number = Number(/change request #(\d+)/.exec(feature.text)?.[1]);
      expect(number).toBeGreaterThan(0);
      served.length = 0;
      for (let i = 0; i < 4; i++) {
        const requirement = await callAny(proposer, 'specbase_create_requirement', {
          featureId: feature.data.id,
          title: `Requirement ${i}`,
        });
        expect(requirement.text).toContain(`change request #${number}`);
        expect((await callAny(proposer, 'specbase_read_feature', { featureId: feature.data.id })).data.title).toBe(
          'Proposed on replicas',
        );
      }
      expect(new Set(served)).toEqual(new Set(['replica1', 'replica2']));
      const read = await callAny(proposer, 'specbase_read_change_request', { number });
      expect(read.data.files).toHaveLength(5);
    } finally {
      await proposer.close();
    }
  });

  it('a listen stream on one replica hears of an edit made on the other within one second', async () => {
    const [first, second] = cluster.replicas;
    const listener = await connectModern(cluster, first!.url);
    const writer = await connectMcp(second!.url, cluster.demo, 'writer');
    try {
      const capabilityId = (await call(writer, 'specbase_list_capabilities', { productId: cluster.demo.productId }))
        .data.items[0].id as string;
      const uri = `specbase://o/${cluster.demo.orgId}/artifact/${capabilityId}`;
      const heard: number[] = [];
      listener.setNotificationHandler('notifications/resources/updated', (notification) => {
        if (notification.params.uri === uri) heard.push(Date.now());
      });
      const subscription = await listener.listen({ resourceSubscriptions: [uri] });
      const anchor = String(
        (await call(writer, 'specbase_read_capability', { capabilityId, mode: 'full' })).data.content,
      ).split('\n')[0]!;
      await call(writer, 'specbase_edit_capability', {
        capabilityId,
        patch: `@@\n ${anchor}\n+Heard across replicas\n`,
      });
      const edited = Date.now();
      await expect.poll(() => heard.length, { timeout: 1_000, interval: 20 }).toBeGreaterThan(0);
      expect(heard[0]! - edited).toBeLessThanOrEqual(1_000);
      await subscription.close();
    } finally {
      await Promise.all([listener.close(), writer.close()]);
    }
  });

  it('a git push through HAProxy and edits on both replicas never interleave: each lands whole, history stays linear', async () => {
    const git = await GitCli.create();
    const work = await mkdtemp(path.join(tmpdir(), 'specbase-replica-push-'));
    const clone = path.join(work, 'clone');
    const token = cluster.demo.token;
    const writers = await Promise.all(
      cluster.replicas.map((replica, i) => connectMcp(replica.url, cluster.demo, `w${i}`)),
    );
    try {
      await git.ok(['clone', '-q', `${cluster.proxy.url}/git/${cluster.demo.orgId}.git`, clone], { token });
      const capabilityId = (
        await call(writers[0]!, 'specbase_list_capabilities', { productId: cluster.demo.productId })
      ).data.items[0].id as string;
      const anchor = String(
        (await call(writers[0]!, 'specbase_read_capability', { capabilityId, mode: 'full' })).data.content,
      ).split('\n')[0]!;
      const engineer = ['-c', 'user.name=Eve Engineer', '-c', 'user.email=eve@example.com'];
      /** One line pushed to product.md, fetched and rebased again as long as an edit moved main first. */
      const pushLine = async (line: string) => {
        await appendFile(path.join(clone, 'product.md'), `\n${line}\n`);
        await git.ok([...engineer, 'commit', '-qam', line], { cwd: clone });
        for (let attempt = 0; attempt < 20; attempt++) {
          const pushed = await git.run(['push', '-q', 'origin', 'HEAD:main'], { cwd: clone, token });
          if (pushed.code === 0) return;
          expect(pushed.stderr).toMatch(/fetch first|moved on since you fetched|not on top of main/);
          await git.ok([...engineer, 'pull', '-q', '--rebase', 'origin', 'main'], { cwd: clone, token });
        }
        throw new Error(`${line} was never pushed`);
      };
      const pushed: string[] = [];
      const edited: string[] = [];
      await Promise.all([
        (async () => {
          for (let i = 0; i < 6; i++) {
            await pushLine(`Pushed line ${i}`);
            pushed.push(`Pushed line ${i}`);
          }
        })(),
        ...writers.map(async (writer, w) => {
          for (let i = 0; i < 6; i++) {
            const marker = `Edited on replica ${w + 1}, ${i}`;
            await call(writer, 'specbase_edit_capability', { capabilityId, patch: `@@\n ${anchor}\n+${marker}\n` });
            edited.push(marker);
          }
        }),
      ]);
      expect(pushed).toHaveLength(6);
      expect(await bareGit(cluster.gitdir, 'rev-list', '--merges', 'main')).toBe('');
      expect(await bareGit(cluster.gitdir, 'fsck', '--no-progress', '--connectivity-only')).toBe('');
      const product = await bareGit(cluster.gitdir, 'show', 'main:product.md');
      for (const line of pushed) expect(product).toContain(line);
      for (const writer of writers) {
        const capability = String(
          (await call(writer, 'specbase_read_capability', { capabilityId, mode: 'full' })).data.content,
        );
        for (const marker of edited) expect(capability).toContain(marker);
        const read = String((await call(writer, 'specbase_read_product', { mode: 'full' })).data.content);
        expect(read).toContain('Pushed line 5');
      }
      expect(await readFile(path.join(clone, 'product.md'), 'utf8')).toContain('Pushed line 5');
    } finally {
      await Promise.all(writers.map((writer) => writer.close()));
      await rm(work, { recursive: true, force: true });
    }
  });
});
