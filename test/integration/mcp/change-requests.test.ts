import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/domain/index.js';
import { PermissionDeniedError } from '../../../src/errors.js';
import { git } from '../../support/git.js';
import { startHarness, type Harness, type Persona } from '../../support/harness.js';
import { callAny as ok, callAnyError as fails, connect, type AnyClient } from './clients.js';
import { connectModern } from './modern-clients.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

type Opener = (persona: Persona, headers?: Record<string, string>, path?: string) => Promise<AnyClient>;
const ERAS: readonly [string, Opener][] = [
  [
    '2025-11-25 (v1 SDK)',
    (persona, headers, path) =>
      connect(h, persona, path ? 'streamable-path' : 'streamable', 'proposing-client', {
        ...(headers ? { headers } : {}),
        ...(path ? { url: new URL(path, h.baseUrl) } : {}),
      }),
  ],
  [
    '2026-07-28 (v2 SDK)',
    (persona, headers, path) =>
      connectModern(h, persona, 'pinned', { ...(headers ? { headers } : {}), ...(path ? { path } : {}) }),
  ],
];

const REVIEW_TOOLS = [
  'specbase_list_change_requests',
  'specbase_open_change_request',
  'specbase_read_change_request',
  'specbase_submit_change_request',
];

const main = () => git(h.gitdir, 'rev-parse', 'main').then((out) => out.trim());
const proposedNumber = (text: string) => Number(/Proposed in change request #(\d+)/.exec(text)?.[1]);
const actorOf = async (persona: Persona): Promise<Actor> => ({
  principal: (await h.services.control.members.principal(h.orgId, h.users[persona].user.id))!,
});

async function capabilityId(client: AnyClient): Promise<string> {
  const listed = await ok(client, 'specbase_list_capabilities', { productId: h.productId });
  return (listed.data.items as { id: string }[])[0]!.id;
}

describe.each(ERAS)('change requests over MCP, %s', (_era, open) => {
  it('a proposal connection writes to a branch it reads back, while main and other connections see nothing of it', async () => {
    const before = await main();
    const assistant = await open('editor', { 'X-Specbase-Change-Request': 'new' });
    const names = (await assistant.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(REVIEW_TOOLS));

    const feature = await ok(assistant, 'specbase_create_feature', {
      capabilityId: await capabilityId(assistant),
      title: `Proposed offline mode ${_era}`,
    });
    const number = proposedNumber(feature.text);
    expect(number).toBeGreaterThan(0);
    expect(feature.text).toContain(`/cr/${number}`);
    // The feature exists only on the branch: a requirement goes under it there.
    const requirement = await ok(assistant, 'specbase_create_requirement', {
      featureId: feature.data.id,
      title: 'Works without a network',
    });
    expect(proposedNumber(requirement.text)).toBe(number);
    expect((await ok(assistant, 'specbase_read_feature', { featureId: feature.data.id })).data.title).toBe(
      `Proposed offline mode ${_era}`,
    );
    const found = await ok(assistant, 'specbase_search', { query: 'proposed offline mode' });
    expect((found.data.results as { id: string }[])[0]?.id).toBe(feature.data.id);

    expect(await main()).toBe(before);
    const plain = await open('owner');
    expect(await fails(plain, 'specbase_read_feature', { featureId: feature.data.id })).toMatch(/not found/);
    const elsewhere = await ok(plain, 'specbase_search', { query: 'proposed offline mode' });
    expect((elsewhere.data.results as { id: string }[]).map((r) => r.id)).not.toContain(feature.data.id);
    expect((await git(h.gitdir, 'log', '--format=%an|%s', `main..cr/${number}`)).trim().split('\n')).toEqual([
      `${h.users.editor.user.name}|Create requirement: Works without a network`,
      `${h.users.editor.user.name}|Create feature: Proposed offline mode ${_era}`,
    ]);

    const read = await ok(assistant, 'specbase_read_change_request', { number });
    expect(read.text).toMatch(/^\+# Works without a network$/m);
    expect(read.data.files).toHaveLength(2);
    const submitted = await ok(assistant, 'specbase_submit_change_request', { summary: 'Offline mode, for review' });
    expect(submitted.data).toMatchObject({ number, submitted: true, description: 'Offline mode, for review' });
    // Submitted: the next change opens another draft.
    const next = await ok(assistant, 'specbase_create_feature', {
      capabilityId: await capabilityId(assistant),
      title: `Second proposal ${_era}`,
    });
    expect(proposedNumber(next.text)).toBeGreaterThan(number);
    await plain.close();
    await assistant.close();
  });

  it('a numbered change request in the URL form takes the writes', async () => {
    const changeRequests = h.services.changeRequests.changeRequests;
    const opened = await changeRequests.open(await actorOf('editor'), { title: `By URL ${_era}` });
    const client = await open('editor', undefined, `/api/mcp/o/${h.orgId}/mcp?change_request=${opened.number}`);
    const edited = await ok(client, 'specbase_create_feature', {
      capabilityId: await capabilityId(client),
      title: `Proposed by URL ${_era}`,
    });
    expect(proposedNumber(edited.text)).toBe(opened.number);
    await client.close();
  });
});

describe('review rules', () => {
  it('a workspace that needs review turns plain writes into proposals; four eyes keep the author from merging', async () => {
    const changeRequests = h.services.changeRequests.changeRequests;
    const owner = await actorOf('owner');
    await changeRequests.setReviewRules(owner, h.defaultWorkspaceId, {
      assistantChangesNeedReview: true,
      authorCannotMerge: true,
    });
    try {
      const before = await main();
      const assistant = await connect(h, 'editor', 'streamable', 'policy-client');
      const created = await ok(assistant, 'specbase_create_feature', {
        capabilityId: await capabilityId(assistant),
        title: 'Reviewed by policy',
      });
      const number = proposedNumber(created.text);
      expect(number).toBeGreaterThan(0);
      expect(await main()).toBe(before);
      // The connection reads its draft: the feature is there for it.
      expect((await ok(assistant, 'specbase_read_feature', { featureId: created.data.id })).data.title).toBe(
        'Reviewed by policy',
      );

      const editor = await actorOf('editor');
      const detail = await changeRequests.detail(editor, number);
      expect(detail.merge).toMatchObject({ allowed: false, reason: expect.stringMatching(/four eyes/) });
      await expect(changeRequests.merge(editor, number)).rejects.toThrow(PermissionDeniedError);

      const merged = await changeRequests.merge(owner, number);
      expect(merged.kind).toBe('fast-forward');
      expect((await git(h.gitdir, 'log', '-1', '--format=%an|%s', 'main')).trim()).toBe(
        `${h.users.editor.user.name}|Create feature: Reviewed by policy`,
      );
      const plain = await connect(h, 'owner', 'streamable', 'other-client');
      expect((await ok(plain, 'specbase_read_feature', { featureId: created.data.id })).data.title).toBe(
        'Reviewed by policy',
      );
      const found = await ok(plain, 'specbase_search', { query: 'reviewed by policy' });
      expect((found.data.results as { id: string }[])[0]?.id).toBe(created.data.id);
      await plain.close();
      await assistant.close();
    } finally {
      await changeRequests.setReviewRules(owner, h.defaultWorkspaceId, {
        assistantChangesNeedReview: false,
        authorCannotMerge: false,
      });
    }
  });
});
