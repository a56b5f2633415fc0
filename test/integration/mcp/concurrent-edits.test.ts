import { execFileSync } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { call, connect, type TransportKind } from './clients.js';

let h: Harness;
let capabilityId: string;
beforeAll(async () => {
  h = await startHarness();
  const owner = await connect(h, 'owner');
  try {
    const product = await call(owner, 'specbase_read_product');
    capabilityId = (await call(owner, 'specbase_list_capabilities', { productId: product.data.id })).data.items[0].id;
  } finally {
    await owner.close();
  }
});
afterAll(async () => {
  await h?.close();
});

const git = (...args: string[]) => execFileSync('git', ['--git-dir', h.gitdir, ...args], { encoding: 'utf8' });

async function createFeature(client: Client, title: string): Promise<string> {
  const created = await call(client, 'specbase_create_feature', { capabilityId, title });
  const id = created.data.id as string;
  const body = (await call(client, 'specbase_read_feature', { featureId: id, mode: 'full' })).data.content as string;
  const patch = ['@@ -1,1 +1,4 @@', ` ${body.split('\n')[0]}`, '+', '+## Storm log', '+', ''].join('\n');
  await call(client, 'specbase_edit_feature', { featureId: id, patch });
  return id;
}

/** The insertion the issue describes: wrong line numbers, one context line, one added line. */
const insertUnderNotes = (line: string) => ['@@ -14,1 +14,2 @@', ' ## Storm log', `+${line}`, ''].join('\n');

async function connectMany(count: number, transports: readonly TransportKind[]): Promise<Client[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) => connect(h, 'editor', transports[i % transports.length], `storm-${i}`)),
  );
}

/** Every tool call of every client; a refused call is kept, not thrown, so the test can count them. */
async function storm(
  clients: readonly Client[],
  edits: (client: number, n: number) => { featureId: string; patch: string },
  perClient: number,
) {
  const outcomes: { line: string; result: CallToolResult }[][] = await Promise.all(
    clients.map(async (client, c) => {
      const results = [];
      for (let n = 0; n < perClient; n++) {
        const args = edits(c, n);
        const result = (await client.callTool({ name: 'specbase_edit_feature', arguments: args })) as CallToolResult;
        results.push({ line: args.patch.split('\n')[2]!.slice(1), result });
      }
      return results;
    }),
  );
  return outcomes.flat();
}

function expectHealthyRepository(): void {
  git('fsck', '--strict', '--no-dangling');
}

it('20 assistants x 10 inserts under one heading, over both transports: none refused, none lost, each line once', async () => {
  const clients = await connectMany(20, ['streamable', 'sse']);
  try {
    const featureId = await createFeature(clients[0]!, 'Shared notes');
    const headBefore = git('rev-parse', 'main').trim();
    const outcomes = await storm(clients, (c, n) => ({ featureId, patch: insertUnderNotes(`- tag ${c}-${n}`) }), 10);

    const refused = outcomes.filter((o) => o.result.isError).map((o) => (o.result.content[0] as { text: string }).text);
    expect(refused).toEqual([]);
    const versions = new Set(outcomes.map((o) => (o.result.structuredContent as { version: string }).version));
    expect(versions.size).toBe(200);

    const body = (await call(clients[1]!, 'specbase_read_feature', { featureId, mode: 'full' })).data.content as string;
    const lines = body.split('\n');
    for (const { line } of outcomes) expect(lines.filter((l) => l === line)).toHaveLength(1);
    expect(git('rev-list', '--count', `${headBefore}..main`).trim()).toBe('200');
    expect(
      git(
        'show',
        `main:${git('ls-tree', '-r', '--name-only', 'main')
          .split('\n')
          .find((p) => p.includes(featureId.slice(0, 8)))}`,
      ),
    ).toContain(outcomes[0]!.line);
    expectHealthyRepository();
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
});

it('50 assistants editing 50 different artifacts at once: every edit committed and present', async () => {
  const clients = await connectMany(50, ['streamable', 'sse']);
  try {
    const featureIds: string[] = [];
    for (let i = 0; i < 50; i++) featureIds.push(await createFeature(clients[0]!, `Parallel feature ${i}`));
    const outcomes = await storm(
      clients,
      (c, n) => ({ featureId: featureIds[c]!, patch: insertUnderNotes(`- own ${c}-${n}`) }),
      3,
    );

    expect(outcomes.filter((o) => o.result.isError)).toEqual([]);
    for (let c = 0; c < 50; c++) {
      const body = (await call(clients[c]!, 'specbase_read_feature', { featureId: featureIds[c]!, mode: 'full' })).data
        .content as string;
      for (let n = 0; n < 3; n++) expect(body.split('\n').filter((l) => l === `- own ${c}-${n}`)).toHaveLength(1);
    }
    expectHealthyRepository();
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
});

it('baseVersion still refuses an edit whose patch no longer applies to the newer text', async () => {
  const [client] = await connectMany(1, ['streamable']);
  try {
    const featureId = await createFeature(client!, 'Guarded notes');
    const read = await call(client!, 'specbase_read_feature', { featureId, mode: 'full' });
    await call(client!, 'specbase_edit_feature', {
      featureId,
      patch: ['@@ -3 +3 @@', '-## Storm log', '+## Remarks', ''].join('\n'),
    });
    const stale = (await client!.callTool({
      name: 'specbase_edit_feature',
      arguments: { featureId, patch: insertUnderNotes('- late'), baseVersion: read.data.version },
    })) as CallToolResult;
    expect(stale.isError).toBe(true);
    expect((stale.content[0] as { text: string }).text).toMatch(/changed since version .* no longer applies/);
  } finally {
    await client!.close();
  }
});
