import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { call, connect } from '../mcp/clients.js';
import { git, launchBrowser, screenshot, signIn } from '../web/support.js';

/** Move from the web: a form of the places an artifact may go; folders renamed, moved, deleted when empty. */
let h: Harness;
let browser: Browser;
let editorMcp: Client;
let featureId: string;
let toCapability: string;

beforeAll(async () => {
  h = await startHarness();
  browser = await launchBrowser();
  editorMcp = await connect(h, 'editor');
  const capabilityId = (await call(editorMcp, 'specbase_list_capabilities', { productId: h.productId })).data.items[0]
    .id;
  toCapability = (await call(editorMcp, 'specbase_create_capability', { productId: h.productId, title: 'Fulfilment' }))
    .data.id;
  featureId = (await call(editorMcp, 'specbase_create_feature', { capabilityId, title: 'Same-day delivery' })).data.id;
});
afterAll(async () => {
  await editorMcp?.close();
  await browser?.close();
  await h?.close();
});

describe('web: move', () => {
  it('moves a feature to the capability chosen, in one commit', async () => {
    const { page, context } = await signIn(browser, h, 'editor', `/o/${h.orgId}/a/${featureId}`);
    try {
      await page.getByRole('link', { name: 'Move', exact: true }).click();
      await page.waitForURL(/\/move$/);
      await page.getByLabel('Move to capability').selectOption({ label: 'Fulfilment' });
      await screenshot(page, 'move-form');
      const before = git(h.gitdir, 'rev-parse', 'main').trim();
      await page.getByRole('button', { name: 'Move', exact: true }).click();
      await page.waitForURL(new RegExp(`/a/${featureId}\\?done=move$`));
      expect(await page.getByRole('navigation', { name: 'Breadcrumb' }).innerText()).toContain('Fulfilment');
      expect(git(h.gitdir, 'rev-list', '--count', `${before}..main`).trim()).toBe('1');
      expect(git(h.gitdir, 'log', '-1', '--format=%an|%s', 'main').trim()).toBe(
        'Editor Tester|Move feature: Same-day delivery',
      );
      git(h.gitdir, 'fsck', '--strict');
      expect((await call(editorMcp, 'specbase_read_feature', { featureId })).data.parentId).toBe(toCapability);
      // Without the page's CSRF token, none of the new forms does anything.
      const head = git(h.gitdir, 'rev-parse', 'main').trim();
      for (const action of [`a/${featureId}/move`, `a/${featureId}/delete`, `deleted/${featureId}/restore`]) {
        const refused = await page.request.post(`${h.baseUrl}/o/${h.orgId}/${action}`, {
          form: { to: 'root', descendants: '0' },
        });
        expect(refused.status(), action).toBe(403);
      }
      expect(git(h.gitdir, 'rev-parse', 'main').trim()).toBe(head);
    } finally {
      await context.close();
    }
  });

  it('offers a viewer no Move, and a user of another workspace none of its folders', async () => {
    const viewer = await signIn(browser, h, 'viewer', `/o/${h.orgId}/a/${featureId}`);
    try {
      expect(await viewer.page.getByRole('link', { name: 'Move', exact: true }).count()).toBe(0);
      expect((await viewer.page.goto(`${h.baseUrl}/o/${h.orgId}/a/${featureId}/move`))!.status()).toBe(403);
    } finally {
      await viewer.context.close();
    }
    const pageId = (await call(editorMcp, 'specbase_create_page', { title: 'Shared notes' })).data.id;
    const restricted = (await h.services.store.folders(h.orgId)).find(
      (f) => f.workspaceId === h.restrictedWorkspaceId,
    )!;
    const partial = await signIn(browser, h, 'partial', `/o/${h.orgId}/a/${pageId}/move`);
    try {
      const options = await partial.page.locator('#move-to option').allInnerTexts();
      expect(options.join('\n')).not.toContain(restricted.name);
      expect((await partial.page.goto(`${h.baseUrl}/o/${h.orgId}/folders/${restricted.id}`))!.status()).toBe(404);
    } finally {
      await partial.context.close();
    }
  });

  it('renames a folder, moves it into another, and deletes it once empty', async () => {
    const principal = (await h.services.control.members.principal(h.orgId, h.users.editor.user.id))!;
    const outer = await h.services.specs.createFolder({ principal }, { name: 'Suppliers' });
    const inner = await h.services.specs.createFolder({ principal }, { name: 'Contracts' });
    const { page, context } = await signIn(browser, h, 'editor', `/o/${h.orgId}/folders/${inner.id}`);
    try {
      await page.getByLabel('Name').fill('Agreements');
      await page.getByRole('button', { name: 'Rename' }).click();
      await page.waitForURL(new RegExp(`/folders/${inner.id}$`));
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Agreements');
      expect(git(h.gitdir, 'log', '-1', '--format=%s', 'main').trim()).toBe('Rename folder: Agreements');
      await page.getByLabel('Move into').selectOption({ label: 'Suppliers' });
      await page.getByRole('button', { name: 'Move', exact: true }).click();
      await page.waitForURL(new RegExp(`/folders/${inner.id}$`));
      expect(git(h.gitdir, 'log', '-1', '--format=%s', 'main').trim()).toBe('Move folder: Agreements');
      await page.goto(`${h.baseUrl}/o/${h.orgId}/folders/${outer.id}`);
      expect(await page.getByRole('button', { name: 'Delete folder' }).count()).toBe(0);
      await screenshot(page, 'folder-page');
      await page.goto(`${h.baseUrl}/o/${h.orgId}/folders/${inner.id}`);
      await page.getByRole('button', { name: 'Delete folder' }).click();
      await page.waitForURL(new RegExp(`/o/${h.orgId}$`));
      expect(git(h.gitdir, 'log', '-1', '--format=%an|%s', 'main').trim()).toBe(
        'Editor Tester|Delete folder: Agreements',
      );
      git(h.gitdir, 'fsck', '--strict');
    } finally {
      await context.close();
    }
  });
});
