import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { call, connect } from '../mcp/clients.js';
import { git, launchBrowser, screenshot, signIn, type SignedIn } from '../web/support.js';

/** Delete with a confirmation listing what goes with it, the Deleted page, Restore, and a continuous history. */
let h: Harness;
let browser: Browser;
let editorMcp: Client;
let editor: SignedIn;
let featureId: string;
let requirementId: string;

beforeAll(async () => {
  h = await startHarness();
  browser = await launchBrowser();
  editorMcp = await connect(h, 'editor');
  const capabilityId = (await call(editorMcp, 'specbase_list_capabilities', { productId: h.productId })).data.items[0]
    .id;
  featureId = (
    await call(editorMcp, 'specbase_create_feature', {
      capabilityId,
      content: '# Store pickup\n\nCollect orders in store.\n',
    })
  ).data.id;
  requirementId = (
    await call(editorMcp, 'specbase_create_requirement', { featureId, title: 'Pickup within two hours' })
  ).data.id;
  editor = await signIn(browser, h, 'editor', `/o/${h.orgId}/a/${featureId}`);
});
afterAll(async () => {
  await editorMcp?.close();
  await browser?.close();
  await h?.close();
});

describe('web: delete and restore', () => {
  it('confirms a delete listing the descendants, then deletes in one commit', async () => {
    const { page } = editor;
    await page.getByRole('link', { name: 'Delete', exact: true }).click();
    await page.waitForURL(/\/delete$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Delete this feature?');
    expect(await page.locator('ul.deleted-with').innerText()).toContain('Pickup within two hours');
    await screenshot(page, 'delete-confirm');
    const before = git(h.gitdir, 'rev-parse', 'main').trim();
    await page.getByRole('button', { name: /^Delete feature and 1 under it$/ }).click();
    await page.waitForURL(/\/deleted$/);
    expect(git(h.gitdir, 'rev-list', '--count', `${before}..main`).trim()).toBe('1');
    expect(git(h.gitdir, 'log', '-1', '--format=%an|%s', 'main').trim()).toBe(
      'Editor Tester|Delete feature: Store pickup',
    );
    git(h.gitdir, 'fsck', '--strict');
    const row = page.locator('table.deleted tbody tr').first();
    expect(await row.innerText()).toMatch(/Store pickup[\s\S]*with 1 under it[\s\S]*Editor Tester/);
    await screenshot(page, 'deleted-page');
    const gone = await page.goto(`${h.baseUrl}/o/${h.orgId}/a/${featureId}`);
    expect(gone!.status()).toBe(404);
  });

  it('shows the Deleted page to a viewer without Restore, and to a user of another workspace without the artifact', async () => {
    const viewer = await signIn(browser, h, 'viewer', `/o/${h.orgId}/deleted`);
    try {
      expect(await viewer.page.locator('table.deleted').innerText()).toContain('Store pickup');
      expect(await viewer.page.getByRole('button', { name: 'Restore Store pickup' }).count()).toBe(0);
    } finally {
      await viewer.context.close();
    }
    const restrictedPage = (await h.services.store.catalog(h.orgId)).find(
      (m) => m.type === 'page' && m.workspaceId === h.restrictedWorkspaceId,
    )!;
    const owner = (await h.services.control.members.principal(h.orgId, h.users.owner.user.id))!;
    await h.services.specs.delete({ principal: owner, client: 'web' }, restrictedPage.id, { recursive: false });
    const partial = await signIn(browser, h, 'partial', `/o/${h.orgId}/deleted`);
    try {
      const listed = await partial.page.locator('table.deleted').innerText();
      expect(listed).toContain('Store pickup');
      expect(listed).not.toContain(restrictedPage.title);
      const csrf = await partial.page.locator('table.deleted input[name=csrf]').first().getAttribute('value');
      const refused = await partial.page.request.post(
        `${h.baseUrl}/o/${h.orgId}/deleted/${restrictedPage.id}/restore`,
        {
          form: { csrf: csrf! },
          headers: { Origin: h.baseUrl },
        },
      );
      expect(refused.status()).toBe(404);
    } finally {
      await partial.context.close();
    }
    await h.services.specs.restoreDeleted({ principal: owner, client: 'web' }, restrictedPage.id);
  });

  it('restores from the Deleted page with id, content and descendants; the history runs on', async () => {
    const { page } = editor;
    await page.goto(`${h.baseUrl}/o/${h.orgId}/deleted`);
    await page.getByRole('button', { name: 'Restore Store pickup' }).click();
    await page.waitForURL(new RegExp(`/a/${featureId}\\?done=undelete$`));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Store pickup');
    expect(await page.locator('.doc').innerText()).toContain('Collect orders in store.');
    expect(await page.locator('section.children').innerText()).toContain('Pickup within two hours');
    expect(git(h.gitdir, 'log', '-1', '--format=%s', 'main').trim()).toBe('Restore feature: Store pickup');
    git(h.gitdir, 'fsck', '--strict');
    await page.goto(`${h.baseUrl}/o/${h.orgId}/a/${featureId}/history`);
    const subjects = await page.locator('ol.timeline li .subject').allInnerTexts();
    expect(subjects).toHaveLength(3);
    expect(subjects[1]).toBe('Delete feature: Store pickup');
    expect(subjects[2]).toBe('Create feature: Store pickup');
    await page.locator('ol.timeline li .subject').nth(1).click();
    await page.waitForURL(/\/changes\/[0-9a-f]{40}$/);
    expect(await page.locator('table.diff').innerText()).toContain('Collect orders in store.');
    await screenshot(page, 'history-after-restore');
    await page.goto(`${h.baseUrl}/o/${h.orgId}/deleted`);
    expect(await page.locator('main').innerText()).toContain('Nothing has been deleted.');
    expect((await call(editorMcp, 'specbase_read_requirement', { requirementId })).data.parentId).toBe(featureId);
  });

  it('offers no Delete to a viewer, and refuses the delete page itself', async () => {
    const viewer = await signIn(browser, h, 'viewer', `/o/${h.orgId}/a/${featureId}`);
    try {
      expect(await viewer.page.getByRole('link', { name: 'Delete', exact: true }).count()).toBe(0);
      const refused = await viewer.page.goto(`${h.baseUrl}/o/${h.orgId}/a/${featureId}/delete`);
      expect(refused!.status()).toBe(403);
    } finally {
      await viewer.context.close();
    }
  });
});
