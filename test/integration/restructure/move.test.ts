import { execFileSync } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/domain/types.js';
import { runCli } from '../../support/cli.js';
import { startHarness, type Harness, type Persona } from '../../support/harness.js';
import { call, callError, connect } from '../mcp/clients.js';

/** Move from the command line, seen by the running service: one commit, the file path stays. */
let h: Harness;
let editor: Client;
let partial: Client;

const git = (...args: string[]) => execFileSync('git', ['--git-dir', h.gitdir, ...args], { encoding: 'utf8' }).trim();
const head = () => git('rev-parse', 'main');
const paths = () => git('ls-tree', '-r', '--name-only', 'main');
const fileOf = (id: string) =>
  git(
    'show',
    `main:${paths()
      .split('\n')
      .find((p) => p.includes(id.slice(0, 8)))}`,
  );

async function cli(persona: Persona, ...args: string[]): Promise<{ code: number; out: Record<string, any> }> {
  try {
    const { stdout } = await runCli(
      [...args, '--org', h.orgId, '--user', h.users[persona].user.email, '--json', '--data-dir', h.dataDir],
      {
        ...process.env,
        SPECBASE_LOG_LEVEL: 'silent',
      },
    );
    return { code: 0, out: JSON.parse(stdout) };
  } catch (error) {
    const e = error as { code: number; stderr: string };
    return { code: e.code, out: JSON.parse(e.stderr) };
  }
}

let fromCapability: string;
let toCapability: string;
let featureId: string;
let requirementId: string;
let restrictedFolderId: string;

async function actor(persona: Persona): Promise<Actor> {
  return {
    principal: (await h.services.control.members.principal(h.orgId, h.users[persona].user.id))!,
    client: 'test',
  };
}

beforeAll(async () => {
  h = await startHarness();
  [editor, partial] = await Promise.all([connect(h, 'editor'), connect(h, 'partial')]);
  fromCapability = (await call(editor, 'specbase_list_capabilities', { productId: h.productId })).data.items[0].id;
  toCapability = (await call(editor, 'specbase_create_capability', { productId: h.productId, title: 'Fulfilment' }))
    .data.id;
  featureId = (
    await call(editor, 'specbase_create_feature', { capabilityId: fromCapability, title: 'Same-day delivery' })
  ).data.id;
  requirementId = (await call(editor, 'specbase_create_requirement', { featureId, title: 'Order by noon' })).data.id;
  restrictedFolderId = (await h.services.store.folders(h.orgId)).find(
    (f) => f.workspaceId === h.restrictedWorkspaceId,
  )!.id;
});
afterAll(async () => {
  await Promise.all([editor?.close(), partial?.close()]);
  await h?.close();
});

describe('artifact move', () => {
  it('moves a feature with its requirements to another capability in one commit; paths stay', async () => {
    const before = head();
    const pathsBefore = paths();
    const done = await cli('editor', 'artifact', 'move', '--id', featureId, '--to', toCapability);
    expect(done.code).toBe(0);
    expect(done.out).toMatchObject({ moved: { id: featureId, type: 'feature' }, parentId: toCapability });
    expect(git('rev-list', '--count', `${before}..main`)).toBe('1');
    expect(git('log', '-1', '--format=%an|%s', 'main')).toBe('Editor Tester|Move feature: Same-day delivery');
    expect(git('log', '-1', '--format=%B', 'main')).toContain(`Artifact-Id: ${featureId}`);
    expect(paths()).toBe(pathsBefore);
    expect(fileOf(featureId)).toContain(`parent: ${toCapability}`);
    git('fsck', '--strict');
    expect((await call(editor, 'specbase_read_feature', { featureId })).data.parentId).toBe(toCapability);
    const listed = async (capabilityId: string) =>
      ((await call(editor, 'specbase_list_features', { capabilityId })).data.items as { id: string }[]).map(
        (i) => i.id,
      );
    expect(await listed(fromCapability)).not.toContain(featureId);
    expect(await listed(toCapability)).toContain(featureId);
    expect((await call(editor, 'specbase_read_requirement', { requirementId })).data.parentId).toBe(featureId);
    const principal = await actor('editor');
    expect((await h.services.specs.history(principal, featureId)).map((e) => e.verb)).toEqual(['move', 'create']);
  });

  it('refuses a parent of the wrong type, the product, a viewer, and says nothing to a non-member', async () => {
    const before = head();
    expect((await cli('editor', 'artifact', 'move', '--id', featureId, '--to', requirementId)).out.message).toBe(
      'a feature moves under a capability, not a requirement',
    );
    expect((await cli('editor', 'artifact', 'move', '--id', featureId, '--to', toCapability)).out.message).toBe(
      'the feature is already there',
    );
    expect((await cli('owner', 'artifact', 'move', '--id', h.productId, '--to', toCapability)).out.message).toBe(
      'the product cannot be moved',
    );
    expect((await cli('viewer', 'artifact', 'move', '--id', featureId, '--to', fromCapability)).out.message).toMatch(
      /^permission denied/,
    );
    expect((await cli('outsider', 'artifact', 'move', '--id', featureId, '--to', fromCapability)).out.message).toBe(
      'artifact not found',
    );
    expect(head()).toBe(before);
  });

  it('moves a page into a folder of another workspace: it takes that workspace, and those who cannot read it lose it', async () => {
    const page = await call(editor, 'specbase_create_page', {
      content: '# Courier contracts\n\nQuetzalcoatl clause applies.\n',
    });
    expect((await call(partial, 'specbase_search', { query: 'quetzalcoatl' })).data.results).toHaveLength(1);
    // Someone who cannot read the folder cannot move anything into it, and learns nothing of it.
    expect(
      (await cli('partial', 'artifact', 'move', '--id', page.data.id, '--to', restrictedFolderId)).out.message,
    ).toBe(`folder not found: the new parent ${restrictedFolderId} names no folder you can read`);
    const done = await cli('editor', 'artifact', 'move', '--id', page.data.id, '--to', restrictedFolderId);
    expect(done.code).toBe(0);
    expect(fileOf(page.data.id)).toContain(`workspace: ${h.restrictedWorkspaceId}`);
    expect(await callError(partial, 'specbase_read_page', { pageId: page.data.id })).toBe('artifact not found');
    expect((await call(partial, 'specbase_search', { query: 'quetzalcoatl' })).data.results).toHaveLength(0);
    expect((await call(editor, 'specbase_search', { query: 'quetzalcoatl' })).data.results).toHaveLength(1);
    expect((await cli('editor', 'artifact', 'move', '--id', page.data.id, '--to', 'root')).code).toBe(0);
    expect((await call(partial, 'specbase_read_page', { pageId: page.data.id })).data.parentId).toBeNull();
    git('fsck', '--strict');
  });

  it('moves, renames and deletes folders: never into themselves, deleted only when empty', async () => {
    const editorActor = await actor('editor');
    const outer = await h.services.specs.createFolder(editorActor, { name: 'Suppliers' });
    const inner = await h.services.specs.createFolder(editorActor, { name: 'Contracts' });
    const page = await call(editor, 'specbase_create_page', { folderId: inner.id, title: 'Supplier terms' });
    const moved = await cli('editor', 'artifact', 'move', '--id', inner.id, '--to', outer.id);
    expect(moved.out).toMatchObject({ movedFolder: { id: inner.id }, parentFolderId: outer.id });
    expect(git('log', '-1', '--format=%s', 'main')).toBe('Move folder: Contracts');
    expect((await cli('editor', 'artifact', 'move', '--id', outer.id, '--to', inner.id)).out.message).toBe(
      'a folder cannot move into itself or a folder under it',
    );
    const renamed = await cli('editor', 'folder', 'rename', '--id', outer.id, '--name', 'Vendors');
    expect(renamed.out.folder).toEqual({ id: outer.id, name: 'Vendors' });
    expect(git('log', '-1', '--format=%an|%s', 'main')).toBe('Editor Tester|Rename folder: Vendors');
    expect((await call(editor, 'specbase_list_folders', {})).data.folders).toContainEqual({
      id: outer.id,
      name: 'Vendors',
      parentFolderId: null,
      pageCount: 0,
    });
    expect((await cli('editor', 'folder', 'delete', '--id', inner.id)).out.message).toBe(
      'the folder is not empty (1 page, 0 folders): move or delete what is in it first',
    );
    expect((await cli('viewer', 'folder', 'delete', '--id', inner.id)).out.message).toMatch(/^permission denied/);
    await cli('editor', 'artifact', 'move', '--id', page.data.id, '--to', 'root');
    expect((await cli('editor', 'folder', 'delete', '--id', inner.id)).code).toBe(0);
    expect(git('log', '-1', '--format=%s', 'main')).toBe('Delete folder: Contracts');
    const folders = (await call(editor, 'specbase_list_folders', {})).data.folders as { id: string }[];
    expect(folders.map((f) => f.id)).not.toContain(inner.id);

    // A folder moved into one of another workspace takes it, with its pages.
    const inside = await call(editor, 'specbase_create_page', { folderId: outer.id, title: 'Vendor list' });
    await cli('editor', 'artifact', 'move', '--id', outer.id, '--to', restrictedFolderId);
    expect(fileOf(inside.data.id)).toContain(`workspace: ${h.restrictedWorkspaceId}`);
    expect(await callError(partial, 'specbase_read_page', { pageId: inside.data.id })).toBe('artifact not found');
    git('fsck', '--strict');
  });
});
