import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/ids.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { call, callError, connect } from './clients.js';

let h: Harness;
let owner: Client;
/** A page in the Leadership workspace, which the 'partial' persona cannot read. */
let hidden: { folderId: string; pageId: string; title: string; version: string };
let capabilityId: string;

beforeAll(async () => {
  h = await startHarness();
  owner = await connect(h, 'owner');
  const folders = (await call(owner, 'specbase_list_folders')).data.folders as { id: string; name: string }[];
  const folderId = folders.find((f) => f.name === 'Leadership')!.id;
  const page = (await call(owner, 'specbase_list_pages', { folderId })).data.items[0];
  const read = await call(owner, 'specbase_read_page', { pageId: page.id });
  hidden = { folderId, pageId: page.id, title: page.title, version: read.data.version };
  capabilityId = (await call(owner, 'specbase_list_capabilities', { productId: h.productId })).data.items[0].id;
});
afterAll(async () => {
  await owner?.close();
  await h?.close();
});

describe('artifact not found', () => {
  it('for a malformed id and an unknown id, on read, list, create and edit', async () => {
    for (const id of ['not-a-uuid', '', newId()]) {
      expect(await callError(owner, 'specbase_read_feature', { featureId: id })).toBe('artifact not found');
      expect(await callError(owner, 'specbase_list_requirements', { featureId: id })).toBe('artifact not found');
      expect(await callError(owner, 'specbase_create_requirement', { featureId: id })).toBe('artifact not found');
      expect(await callError(owner, 'specbase_edit_feature', { featureId: id, patch: '@@\n-a\n+b\n' })).toBe(
        'artifact not found',
      );
    }
    expect(await callError(owner, 'specbase_list_pages', { folderId: newId() })).toBe('artifact not found');
  });

  it('for an id of another type that the caller cannot read (a readable one is named: first-time.test.ts)', async () => {
    const partial = await connect(h, 'partial');
    try {
      expect(await callError(partial, 'specbase_read_feature', { featureId: hidden.pageId })).toBe(
        'artifact not found',
      );
      expect(
        await callError(partial, 'specbase_edit_feature', { featureId: hidden.pageId, patch: '@@\n-a\n+b\n' }),
      ).toBe('artifact not found');
    } finally {
      await partial.close();
    }
  });
});

describe('arguments', () => {
  it('are validated with a sentence that names the problem', async () => {
    expect(await callError(owner, 'specbase_search', { query: 'cart', limit: 51 })).toMatch(/limit/);
    expect(await callError(owner, 'specbase_search', { query: 'cart', artifactTypes: ['epic'] })).toMatch(
      /artifactTypes/,
    );
    expect(await callError(owner, 'specbase_read_product', { mode: 'everything' })).toMatch(/mode/);
    expect(await callError(owner, 'specbase_create_requirement', { featureId: newId(), type: 'NICE_TO_HAVE' })).toMatch(
      /type/,
    );
  });
});

describe('a viewer', () => {
  it('reads, lists and searches but cannot create or edit: "permission denied"', async () => {
    const viewer = await connect(h, 'viewer');
    try {
      const feature = (await call(viewer, 'specbase_list_features', { capabilityId })).data.items[0];
      const read = await call(viewer, 'specbase_read_feature', { featureId: feature.id, mode: 'full' });
      const firstLine = (read.data.content as string).split('\n')[0];
      expect(
        await callError(viewer, 'specbase_edit_feature', {
          featureId: feature.id,
          patch: `@@\n-${firstLine}\n+# Mine now\n`,
        }),
      ).toBe('permission denied');
      expect(await callError(viewer, 'specbase_create_feature', { capabilityId })).toBe('permission denied');
      expect(await callError(viewer, 'specbase_create_page', {})).toBe('permission denied');
      expect((await call(viewer, 'specbase_read_feature', { featureId: feature.id })).data.version).toBe(
        read.data.version,
      );
    } finally {
      await viewer.close();
    }
  });

  it('is re-checked on every call: a role changed mid-session applies at once', async () => {
    const editor = await connect(h, 'editor');
    try {
      await call(editor, 'specbase_create_user_type', { productId: h.productId, title: 'Courier' });
      await h.services.control.members.grant({
        orgId: h.orgId,
        userId: h.users.editor.user.id,
        workspaceId: h.defaultWorkspaceId,
        role: 'viewer',
      });
      expect(await callError(editor, 'specbase_create_user_type', { productId: h.productId })).toBe(
        'permission denied',
      );
    } finally {
      await h.services.control.members.grant({
        orgId: h.orgId,
        userId: h.users.editor.user.id,
        workspaceId: h.defaultWorkspaceId,
        role: 'editor',
      });
      await editor.close();
    }
  });
});

describe('an artifact in a workspace the user cannot access', () => {
  let partial: Client;
  beforeAll(async () => {
    partial = await connect(h, 'partial', 'sse');
  });
  afterAll(async () => {
    await partial?.close();
  });

  it('is visible to a member of that workspace (the control)', async () => {
    const results = (await call(owner, 'specbase_search', { query: hidden.title, limit: 50 })).data.results as {
      id: string;
    }[];
    expect(results.map((r) => r.id)).toContain(hidden.pageId);
  });

  it('never appears in read, list, search or edit', async () => {
    expect(await callError(partial, 'specbase_read_page', { pageId: hidden.pageId })).toBe('artifact not found');
    expect(await callError(partial, 'specbase_read_page', { pageId: hidden.pageId, mode: 'full' })).toBe(
      'artifact not found',
    );
    const pages = (await call(partial, 'specbase_list_pages')).data.items as { id: string }[];
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.map((p) => p.id)).not.toContain(hidden.pageId);
    expect(await callError(partial, 'specbase_list_pages', { folderId: hidden.folderId })).toBe('artifact not found');
    const folders = (await call(partial, 'specbase_list_folders')).data.folders as { id: string }[];
    expect(folders.map((f) => f.id)).not.toContain(hidden.folderId);
    const search = await call(partial, 'specbase_search', { query: hidden.title, limit: 50 });
    expect((search.data.results as { id: string }[]).map((r) => r.id)).not.toContain(hidden.pageId);
    expect(search.text).not.toContain(hidden.pageId);
    const byType = await call(partial, 'specbase_search', { query: hidden.title, artifactTypes: ['page'], limit: 50 });
    expect((byType.data.results as { id: string }[]).map((r) => r.id)).not.toContain(hidden.pageId);
    expect(
      await callError(partial, 'specbase_edit_page', {
        pageId: hidden.pageId,
        patch: `@@\n-# ${hidden.title}\n+# Leaked\n`,
      }),
    ).toBe('artifact not found');
    expect(await callError(partial, 'specbase_create_page', { folderId: hidden.folderId })).toBe('artifact not found');
    expect((await call(owner, 'specbase_read_page', { pageId: hidden.pageId })).data.version).toBe(hidden.version);
  });
});
