import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/domain/types.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { launchBrowser, screenshot, signIn, type SignedIn } from './support.js';

describe('web: the activity feed after deletes, restores and moves', () => {
  let harness: Harness;
  let browser: Browser;
  let owner: SignedIn;
  let partial: SignedIn;
  const ids: Record<'moved' | 'gone' | 'back' | 'secret', string> = { moved: '', gone: '', back: '', secret: '' };

  beforeAll(async () => {
    harness = await startHarness();
    const { specs, control } = harness.services;
    const principal = await control.members.principal(harness.orgId, harness.users.owner.user.id);
    const web: Actor = { principal: principal!, client: 'web' };
    const folder = await specs.createFolder(web, { name: 'Archive' });
    const secretFolder = await specs.createFolder(web, { name: 'Board', workspaceId: harness.restrictedWorkspaceId });
    const page = async (title: string, parentId?: string) =>
      (
        await specs.create(web, 'page', {
          title,
          content: `# ${title}\n\nFirst line of ${title}.\n`,
          ...(parentId ? { parentId } : {}),
        })
      ).id;
    ids.moved = await page('Moved notes');
    ids.gone = await page('Gone notes');
    ids.back = await page('Back notes');
    ids.secret = await page('Board minutes', secretFolder.id);
    await specs.move(web, ids.moved, folder.id);
    await specs.delete(web, ids.back, { recursive: false });
    await specs.restoreDeleted(web, ids.back);
    await specs.delete(web, ids.secret, { recursive: false });
    browser = await launchBrowser();
    owner = await signIn(browser, harness, 'owner');
  });

  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  const activity = () => `${harness.baseUrl}/o/${harness.orgId}/activity`;

  it('deletes one in the browser, then lists it as deleted, linking to the Deleted page', async () => {
    const { page } = owner;
    await page.goto(`${harness.baseUrl}/o/${harness.orgId}/a/${ids.gone}/delete`);
    await page.getByRole('button', { name: /^Delete page/ }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/deleted'));

    const response = await page.goto(activity());
    expect(response?.status()).toBe(200);
    const gone = page.locator('ol.timeline > li.deleted', { hasText: 'Gone notes' });
    // Its delete and its create, each shown as deleted, neither linking to the artifact or its changes.
    expect(await gone.count()).toBe(2);
    expect(await gone.first().innerText()).toMatch(/deleted\s+Page\s+Gone notes\s+\(deleted\)/i);
    expect(await gone.locator(`a[href*="/a/${ids.gone}"]`).count()).toBe(0);
    expect(await gone.locator('del').first().innerText()).toBe('Gone notes');
    await screenshot(page, 'activity-with-deleted');

    await gone.first().getByRole('link', { name: '(deleted)' }).click();
    await page.waitForURL((url) => url.pathname === `/o/${harness.orgId}/deleted`);
    expect(await page.locator('table.deleted').innerText()).toContain('Gone notes');
  });

  it('shows the restored and the moved artifact as they are now, linked', async () => {
    const { page } = owner;
    await page.goto(activity());
    const items = await page.locator('ol.timeline > li').allInnerTexts();
    const back = page.locator('ol.timeline > li', { hasText: 'Back notes' });
    expect(await back.count()).toBe(3);
    expect(await page.locator('ol.timeline > li.deleted', { hasText: 'Back notes' }).count()).toBe(0);
    expect(items.find((t) => t.includes('Back notes'))).toMatch(/restored\s+Page\s+Back notes/i);
    await back.first().getByRole('link', { name: 'Back notes' }).click();
    await page.waitForURL((url) => url.pathname === `/o/${harness.orgId}/a/${ids.back}`);

    await page.goto(activity());
    expect(items.find((t) => t.includes('Moved notes'))).toMatch(/moved\s+Page\s+Moved notes/i);
    const moved = page.locator('ol.timeline > li', { hasText: 'Moved notes' }).first();
    expect(await moved.getByRole('link', { name: 'Moved notes' }).getAttribute('href')).toBe(
      `/o/${harness.orgId}/a/${ids.moved}`,
    );
  });

  it('still shows only the workspaces a member can read', async () => {
    partial = await signIn(browser, harness, 'partial', `/o/${harness.orgId}/activity`);
    const text = await partial.page.locator('main').innerText();
    expect(text).toContain('Gone notes');
    expect(text).not.toContain('Board minutes');
    expect(await owner.page.goto(activity()).then(() => owner.page.locator('main').innerText())).toContain(
      'Board minutes',
    );
  });
});
