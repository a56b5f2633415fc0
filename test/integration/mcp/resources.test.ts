import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/domain/types.js';
import { startHarness, type Harness, type Persona } from '../../support/harness.js';
import { call, connect } from './clients.js';
import { connectModern, modernRaw } from './modern-clients.js';

let h: Harness;
let owner: Actor;
/** A page in the restricted workspace: the partial persona cannot read it. */
let hiddenId: string;
let capabilityId: string;

beforeAll(async () => {
  h = await startHarness();
  owner = { principal: (await h.services.control.members.principal(h.orgId, h.users.owner.user.id))! };
  capabilityId = (await h.services.specs.listChildren(owner, 'capability', h.productId))[0]!.id;
  const leadership = (await h.services.specs.listFolders(owner)).find((folder) => folder.name === 'Leadership')!;
  hiddenId = (await h.services.specs.create(owner, 'page', { parentId: leadership.id, title: 'Leadership only' })).id;
  // More than one page of resources.
  for (let i = 0; i < 100; i++) await h.services.specs.create(owner, 'page', { title: `Resource page ${i}` });
}, 120_000);
afterAll(async () => {
  await h?.close();
});

type AnyClient = LegacyClient | ModernClient;
const ERAS: readonly [string, (persona: Persona) => Promise<AnyClient>][] = [
  ['2025', (persona) => connect(h, persona)],
  ['2026-07-28', (persona) => connectModern(h, persona)],
];
const uriOf = (id: string) => `specbase://o/${h.orgId}/artifact/${id}`;

/** Every resource, page by page (the v2 client walks the pages itself when given no cursor). */
async function allResources(client: AnyClient): Promise<{ uri: string; name: string; mimeType?: string }[]> {
  if ('getProtocolEra' in client) return (await client.listResources()).resources;
  const all = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.listResources(cursor ? { cursor } : {});
    expect(page.resources.length).toBeLessThanOrEqual(100);
    all.push(...page.resources);
    cursor = page.nextCursor;
    pages++;
  } while (cursor);
  expect(pages).toBeGreaterThan(1);
  return all;
}

describe.each(ERAS)('resources in the %s era', (_era, open) => {
  it('lists every readable artifact, paged, and reads each as markdown', async () => {
    const client = await open('owner');
    try {
      const resources = await allResources(client);
      const readable = await h.services.specs.listReadable(owner);
      expect(resources.map((r) => r.uri)).toEqual(readable.map((item) => uriOf(item.id)));
      expect(resources.every((r) => r.mimeType === 'text/markdown')).toBe(true);
      const read = await client.readResource({ uri: uriOf(capabilityId) });
      const full = await h.services.specs.readAny(owner, capabilityId, 'full');
      expect(read.contents).toEqual([{ uri: uriOf(capabilityId), mimeType: 'text/markdown', text: full.content }]);
    } finally {
      await client.close();
    }
  });

  it('never lists nor reads an artifact the caller cannot read', async () => {
    const client = await open('partial');
    try {
      const uris = (await allResources(client)).map((r) => r.uri);
      expect(uris).not.toContain(uriOf(hiddenId));
      // "Resource not found" is -32002 in 2025-11-25; the 2026-07-28 revision answers it as invalid params.
      // Both name the URI in the error's data.
      const code = 'getProtocolEra' in client ? -32602 : -32002;
      await expect(client.readResource({ uri: uriOf(hiddenId) })).rejects.toMatchObject({
        code,
        message: expect.stringContaining('resource not found'),
        data: { uri: uriOf(hiddenId) },
      });
      const foreign = 'specbase://o/00000000-0000-4000-8000-000000000000/artifact/x';
      await expect(client.readResource({ uri: foreign })).rejects.toMatchObject({ code, data: { uri: foreign } });
    } finally {
      await client.close();
    }
  });

  it('offers the artifact template, whose id completes by title', async () => {
    const client = await open('owner');
    try {
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([`specbase://o/${h.orgId}/artifact/{id}`]);
      const completion = await client.complete({
        ref: { type: 'ref/resource', uri: resourceTemplates[0]!.uriTemplate },
        argument: { name: 'id', value: 'resource page 4' },
      });
      const titles = await h.services.specs.listReadable(owner);
      const expected = titles
        .filter((item) => item.title.toLowerCase().startsWith('resource page 4'))
        .map((item) => item.id);
      expect(completion.completion.values.sort()).toEqual(expected.sort());
      expect(expected).toHaveLength(11);
    } finally {
      await client.close();
    }
  });

  it('links the artifacts of search results as resources', async () => {
    const client = await open('owner');
    try {
      const result = (await client.callTool({ name: 'specbase_search', arguments: { query: 'Resource page 7' } })) as {
        content: { type: string; uri?: string; name?: string }[];
        structuredContent: { results: { id: string; title: string }[] };
      };
      expect(result.content[0]!.type).toBe('text');
      const links = result.content.slice(1);
      expect(links.length).toBe(result.structuredContent.results.length);
      expect(links[0]).toMatchObject({
        type: 'resource_link',
        uri: uriOf(result.structuredContent.results[0]!.id),
        name: result.structuredContent.results[0]!.title,
      });
    } finally {
      await client.close();
    }
  });
});

/** Edits an artifact's file with the git CLI in a clone and pushes it: a commit of another process. */
async function commitElsewhere(id: string, line: string): Promise<void> {
  const clone = await mkdtemp(path.join(tmpdir(), 'specbase-other-process-'));
  try {
    const work = (...args: string[]) =>
      execFileSync('git', ['-C', path.join(clone, 'work'), ...args], { encoding: 'utf8' });
    execFileSync('git', ['clone', '-q', h.gitdir, path.join(clone, 'work')]);
    const file = path.join(clone, 'work', (await h.services.store.meta(h.orgId, id))!.path);
    await writeFile(file, `${await readFile(file, 'utf8')}\n${line}\n`);
    work(
      '-c',
      'user.name=Other',
      '-c',
      'user.email=other@example.com',
      'commit',
      '-q',
      '-am',
      `Edit from another process: ${line}`,
    );
    work('push', '-q', 'origin', 'HEAD:main');
  } finally {
    await rm(clone, { recursive: true, force: true });
  }
}

it('pages resources/list by 100 with an opaque cursor on the 2026-07-28 era too', async () => {
  const first = await modernRaw(h, 'resources/list');
  expect(first.json.result.resources).toHaveLength(100);
  expect(first.json.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
  const second = await modernRaw(h, 'resources/list', { cursor: first.json.result.nextCursor });
  const total = (await h.services.specs.listReadable(owner)).length;
  expect(second.json.result.resources).toHaveLength(total - 100);
  expect(second.json.result.nextCursor).toBeUndefined();
  expect((await modernRaw(h, 'resources/list', { cursor: 'not-a-cursor' })).json.error.message).toMatch(
    /invalid cursor/,
  );
});

describe('subscriptions', () => {
  it('tell both eras of a commit another process made, within a second, and never about what the subscriber cannot read', async () => {
    const legacy = await connect(h, 'owner');
    const partial = await connect(h, 'partial');
    const modern = await connectModern(h, 'owner');
    const modernPartial = await connectModern(h, 'partial');
    const heard: Record<string, string[]> = { legacy: [], partial: [], modern: [], modernPartial: [] };
    legacy.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void heard.legacy!.push(n.params.uri));
    partial.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void heard.partial!.push(n.params.uri));
    modern.setNotificationHandler('notifications/resources/updated', (n) => void heard.modern!.push(n.params.uri));
    modernPartial.setNotificationHandler(
      'notifications/resources/updated',
      (n) => void heard.modernPartial!.push(n.params.uri),
    );
    try {
      await legacy.subscribeResource({ uri: uriOf(capabilityId) });
      await legacy.subscribeResource({ uri: uriOf(hiddenId) });
      await expect(partial.subscribeResource({ uri: uriOf(hiddenId) })).rejects.toMatchObject({ code: -32002 });
      const listening = await modern.listen({ resourceSubscriptions: [uriOf(capabilityId), uriOf(hiddenId)] });
      expect(listening.honoredFilter.resourceSubscriptions).toContain(uriOf(capabilityId));
      const partialListening = await modernPartial.listen({ resourceSubscriptions: [uriOf(hiddenId)] });

      // Timed from the commit, not from the clone and commit the other process makes first.
      await commitElsewhere(capabilityId, 'A line from elsewhere');
      const started = Date.now();
      await expect
        .poll(() => heard.legacy!.length > 0 && heard.modern!.length > 0, { timeout: 1_000, interval: 20 })
        .toBe(true);
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(heard.legacy).toEqual([uriOf(capabilityId)]);
      expect(heard.modern).toEqual([uriOf(capabilityId)]);

      await commitElsewhere(hiddenId, 'A hidden line');
      await expect.poll(() => heard.legacy!.length, { timeout: 1_000, interval: 20 }).toBe(2);
      await expect.poll(() => heard.modern!.length, { timeout: 1_000, interval: 20 }).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(heard.partial).toEqual([]);
      expect(heard.modernPartial).toEqual([]);
      await Promise.all([listening.close(), partialListening.close()]);
    } finally {
      await Promise.all([legacy.close(), partial.close(), modern.close(), modernPartial.close()]);
    }
  });
});

it('reads through the tools as well as through resources', async () => {
  const client = await connect(h, 'owner');
  try {
    expect((await call(client, 'specbase_read_capability', { capabilityId, mode: 'full' })).data.id).toBe(capabilityId);
  } finally {
    await client.close();
  }
});
