import { execFileSync } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { call, connect } from '../mcp/clients.js';
import { launchBrowser, signIn } from '../web/support.js';

/** A markdown link to an artifact's url is a link: reads return both directions, the web shows them. */
let h: Harness;
let editor: Client;
let partial: Client;
let browser: Browser;
let featureId: string;
let featureUrl: string;
let pageId: string;
let restrictedPageId: string;

const git = (...args: string[]) => execFileSync('git', ['--git-dir', h.gitdir, ...args], { encoding: 'utf8' }).trim();
const ids = (refs: { id: string }[]) => refs.map((r) => r.id);

beforeAll(async () => {
  h = await startHarness();
  [editor, partial] = await Promise.all([connect(h, 'editor'), connect(h, 'partial')]);
  browser = await launchBrowser();
  const capabilityId = (await call(editor, 'specbase_list_capabilities', { productId: h.productId })).data.items[0].id;
  const feature = await call(editor, 'specbase_create_feature', { capabilityId, title: 'Gift wrapping' });
  featureId = feature.data.id;
  featureUrl = feature.data.url;
  const restrictedFolder = (await h.services.store.folders(h.orgId)).find(
    (f) => f.workspaceId === h.restrictedWorkspaceId,
  )!;
  const restricted = await call(editor, 'specbase_create_page', {
    folderId: restrictedFolder.id,
    content: `# Wrapping margins\n\nWe charge for [gift wrapping](${featureUrl}).\n`,
  });
  restrictedPageId = restricted.data.id;
  const page = await call(editor, 'specbase_create_page', {
    content: `# Holiday plan\n\nShip <${featureUrl}> first; margins in [the board page](${restricted.data.url}).\n`,
  });
  pageId = page.data.id;
});
afterAll(async () => {
  await Promise.all([editor?.close(), partial?.close(), browser?.close()]);
  await h?.close();
});

describe('links and backlinks', () => {
  it('returns links and referencedBy in read results', async () => {
    const page = await call(editor, 'specbase_read_page', { pageId });
    expect(page.data.links).toEqual([
      { id: featureId, type: 'feature', title: 'Gift wrapping' },
      { id: restrictedPageId, type: 'page', title: 'Wrapping margins' },
    ]);
    expect(page.text).toContain(`Links to: feature ${featureId} "Gift wrapping"`);
    const feature = await call(editor, 'specbase_read_feature', { featureId });
    expect(ids(feature.data.referencedBy).sort()).toEqual([pageId, restrictedPageId].sort());
  });

  it('leaves out what the reader cannot read, both ways', async () => {
    const page = await call(partial, 'specbase_read_page', { pageId });
    expect(ids(page.data.links)).toEqual([featureId]);
    const feature = await call(partial, 'specbase_read_feature', { featureId });
    expect(ids(feature.data.referencedBy)).toEqual([pageId]);
  });

  it('follows an edit that removes a link', async () => {
    await call(editor, 'specbase_edit_page', {
      pageId: restrictedPageId,
      patch: `@@\n-We charge for [gift wrapping](${featureUrl}).\n+We charge for wrapping.\n`,
    });
    expect(ids((await call(editor, 'specbase_read_feature', { featureId })).data.referencedBy)).toEqual([pageId]);
  });

  it('shows Referenced by on the web page, readable sources only', async () => {
    const signedIn = await signIn(browser, h, 'editor', `/o/${h.orgId}/a/${featureId}`);
    try {
      const section = signedIn.page.getByRole('list', { name: /Referenced by/ });
      expect(await section.innerText()).toContain('Holiday plan');
    } finally {
      await signedIn.context.close();
    }
  });

  it('shows a link to an artifact deleted by another process as deleted, and the delete confirmation names who links to it', async () => {
    const signedIn = await signIn(browser, h, 'editor', `/o/${h.orgId}/a/${featureId}/delete`);
    try {
      expect(await signedIn.page.locator('ul.linked-from').innerText()).toContain('Holiday plan');
    } finally {
      await signedIn.context.close();
    }
    await runCli(
      [
        'artifact',
        'delete',
        '--org',
        h.orgId,
        '--id',
        featureId,
        '--user',
        'editor@example.com',
        '--data-dir',
        h.dataDir,
      ],
      {
        ...process.env,
        SPECBASE_LOG_LEVEL: 'silent',
      },
    );
    expect(git('log', '-1', '--format=%s', 'main')).toBe('Delete feature: Gift wrapping');
    const page = await call(editor, 'specbase_read_page', { pageId });
    expect(page.data.links[0]).toEqual({ id: featureId, type: 'feature', title: 'Gift wrapping', deleted: true });
    const web = await signIn(browser, h, 'editor', `/o/${h.orgId}/a/${pageId}`);
    try {
      expect(await web.page.locator('li.deleted-link').innerText()).toMatch(/Gift wrapping\s*\(deleted\)/);
    } finally {
      await web.context.close();
    }
    await runCli(
      [
        'artifact',
        'restore',
        '--org',
        h.orgId,
        '--id',
        featureId,
        '--user',
        'editor@example.com',
        '--data-dir',
        h.dataDir,
      ],
      {
        ...process.env,
        SPECBASE_LOG_LEVEL: 'silent',
      },
    );
    expect(ids((await call(editor, 'specbase_read_feature', { featureId })).data.referencedBy)).toEqual([pageId]);
    expect((await call(editor, 'specbase_read_page', { pageId })).data.links[0].deleted).toBeUndefined();
    git('fsck', '--strict');
  });
});
