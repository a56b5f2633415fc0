import { execFileSync } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { call, callError, connect } from '../mcp/clients.js';

/** Create tools take the whole document: one call, one commit, the checks of an edit. */
let h: Harness;
let editor: Client;
let viewer: Client;
let partial: Client;
let capabilityId: string;

const git = (...args: string[]) => execFileSync('git', ['--git-dir', h.gitdir, ...args], { encoding: 'utf8' }).trim();
const head = () => git('rev-parse', 'main');

beforeAll(async () => {
  h = await startHarness();
  [editor, viewer, partial] = await Promise.all([connect(h, 'editor'), connect(h, 'viewer'), connect(h, 'partial')]);
  capabilityId = (await call(editor, 'specbase_list_capabilities', { productId: h.productId })).data.items[0].id;
});
afterAll(async () => {
  await Promise.all([editor?.close(), viewer?.close(), partial?.close()]);
  await h?.close();
});

const FEATURE = '# Saved carts\n\nShoppers keep a cart between visits.\n\n## Requirements\n\n- Carts last 30 days\n';

describe('create with content', () => {
  it('writes the whole document in one commit, titled by its heading, authored by the user', async () => {
    const before = head();
    const created = await call(editor, 'specbase_create_feature', { capabilityId, content: FEATURE });
    expect(created.data).toMatchObject({
      title: 'Saved carts',
      content: FEATURE,
      parentId: capabilityId,
      truncated: false,
    });
    expect(git('rev-list', '--count', `${before}..main`)).toBe('1');
    expect(git('log', '-1', '--format=%an <%ae>%n%s', 'main')).toBe(
      'Editor Tester <editor@example.com>\nCreate feature: Saved carts',
    );
    expect(git('log', '-1', '--format=%B', 'main')).toContain(`Artifact-Id: ${created.data.id}`);
    const read = await call(editor, 'specbase_read_feature', { featureId: created.data.id, mode: 'full' });
    expect(read.data.content).toBe(FEATURE);
    const listed = (await call(editor, 'specbase_list_features', { capabilityId })).data.items as { id: string }[];
    expect(listed.map((i) => i.id)).toContain(created.data.id);
    git('fsck', '--strict');
  });

  it('takes a title that agrees with the heading, and refuses one that does not, writing nothing', async () => {
    const agreed = await call(editor, 'specbase_create_feature', {
      capabilityId,
      title: 'Gift cards',
      content: '# Gift cards\n\nBody.\n',
    });
    expect(agreed.data.title).toBe('Gift cards');
    const before = head();
    expect(
      await callError(editor, 'specbase_create_feature', {
        capabilityId,
        title: 'Vouchers',
        content: '# Gift cards\n\nBody.\n',
      }),
    ).toBe(
      'the title "Vouchers" and the content\'s first heading "Gift cards" differ: give one of them, or make them the same',
    );
    expect(head()).toBe(before);
  });

  it('heads a document without a heading with the title; a page may stay headless', async () => {
    const feature = await call(editor, 'specbase_create_feature', {
      capabilityId,
      title: 'Wish lists',
      content: 'Shoppers save items for later.\n',
    });
    expect(feature.data.content).toBe('# Wish lists\n\nShoppers save items for later.\n');
    const page = await call(editor, 'specbase_create_page', { content: 'Loose notes.\n' });
    expect(page.data).toMatchObject({ title: 'Untitled page', content: 'Loose notes.\n' });
  });

  it('takes the requirement type from the document line, and refuses a line naming no type', async () => {
    const featureId = (await call(editor, 'specbase_create_feature', { capabilityId, title: 'Refunds' })).data.id;
    const requirement = await call(editor, 'specbase_create_requirement', {
      featureId,
      content:
        '# Refund within 14 days\n\n**Requirement type:** CONSTRAINT (limits)\n\nA refund is paid within 14 days.\n',
    });
    expect(requirement.data.requirementType).toBe('CONSTRAINT');
    expect(
      git(
        'show',
        `main:${git('ls-tree', '-r', '--name-only', 'main')
          .split('\n')
          .find((p) => p.includes(requirement.data.id.slice(0, 8)))}`,
      ),
    ).toContain('requirementType: CONSTRAINT');
    const before = head();
    expect(
      await callError(editor, 'specbase_create_requirement', {
        featureId,
        content: '# Refund fast\n\n**Requirement type:** NICE_TO_HAVE\n',
      }),
    ).toBe(
      'the **Requirement type:** line names "NICE_TO_HAVE"; use one of FUNCTIONAL, NON_FUNCTIONAL, CONSTRAINT, BUSINESS_RULE',
    );
    expect(head()).toBe(before);
  });

  it('refuses control characters naming them, and documents over the size limit, writing nothing', async () => {
    const before = head();
    const control = await callError(editor, 'specbase_create_feature', {
      capabilityId,
      content: '# Bell\n\nring \u0007 here\n',
    });
    expect(control).toMatch(/^The document has .*U\+0007.* at line 3, column 6\./);
    const huge = await callError(editor, 'specbase_create_page', { content: `# Big\n\n${'x'.repeat(1024 * 1024)}\n` });
    expect(huge).toMatch(/the document is .* the limit is/i);
    expect(head()).toBe(before);
  });

  it('lets neither a viewer create, nor anyone learn of a parent they cannot read', async () => {
    const before = head();
    expect(await callError(viewer, 'specbase_create_feature', { capabilityId, content: FEATURE })).toMatch(
      /^permission denied/,
    );
    const restrictedFolder = (await h.services.store.folders(h.orgId)).find(
      (f) => f.workspaceId === h.restrictedWorkspaceId,
    )!;
    expect(
      await callError(partial, 'specbase_create_page', { folderId: restrictedFolder.id, content: FEATURE }),
    ).toMatch(/not found$/);
    expect(
      await callError(viewer, 'specbase_create_page', { folderId: restrictedFolder.id, content: FEATURE }),
    ).toMatch(/^permission denied/);
    expect(head()).toBe(before);
    git('fsck', '--strict');
  });
});
