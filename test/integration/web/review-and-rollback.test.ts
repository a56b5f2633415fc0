import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { callTool, git, launchBrowser, mcpClient, screenshot, signIn, type SignedIn } from './support.js';

const TITLE = 'Typo-tolerant matching';
const OLD_LINE = '22% of zero-result searches in the 2024 logs were single-letter typos on mobile keyboards.';
const NEW_LINE = '31% of zero-result searches in the 2025 logs were single-letter typos on mobile keyboards.';

describe('web: find, review and roll back a change made through MCP', () => {
  let harness: Harness;
  let browser: Browser;
  let owner: SignedIn;
  let editorMcp: Client;
  let artifactPath: string;
  let requirementId: string;
  let original: string;
  let editCommit: string;

  beforeAll(async () => {
    harness = await startHarness();
    browser = await launchBrowser();
    owner = await signIn(browser, harness, 'owner');
    editorMcp = await mcpClient(harness.baseUrl, harness.orgId, harness.users.editor.token, 'web-test-client');
  });

  afterAll(async () => {
    await editorMcp?.close();
    await browser?.close();
    await harness?.close();
  });

  it('shows the product tree after signing in and finds the artifact through it', async () => {
    const { page } = owner;
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('FreshCart');
    await expect(page.getByRole('heading', { name: /User Types/ }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'home');

    await page.getByRole('link', { name: TITLE }).click();
    await page.waitForURL(/\/a\/[0-9a-f-]{36}$/);
    artifactPath = new URL(page.url()).pathname;
    requirementId = artifactPath.split('/').at(-1)!;
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(TITLE);
    const crumbs = await page.getByRole('navigation', { name: 'Breadcrumb' }).innerText();
    expect(crumbs).toMatch(/FreshCart[\s›]+Catalog and Search[\s›]+Product Search/);
    expect(await page.locator('.artifact-head .badges').innerText()).toMatch(/REQUIREMENT\s*Functional/i);
    expect(await page.locator('.doc').innerText()).toContain(OLD_LINE);
    await screenshot(page, 'artifact');
  });

  it('finds the same artifact through search', async () => {
    const { page } = owner;
    await page.getByLabel('Search this organization').fill('Damerau Levenshtein');
    await page.getByLabel('Search this organization').press('Enter');
    await page.waitForURL(/\/search\?q=/);
    await screenshot(page, 'search');
    await page.locator('ol.results').getByRole('link', { name: TITLE }).click();
    await page.waitForURL((url) => url.pathname === artifactPath);
  });

  it('serves the raw markdown as text/markdown', async () => {
    const response = await owner.page.request.get(`${harness.baseUrl}${artifactPath}/raw`);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('text/markdown; charset=utf-8');
    original = await response.text();
    const read = await callTool(editorMcp, 'specbase_read_requirement', { requirementId, mode: 'full' });
    expect(original).toBe(read.content);
    expect(original).toContain(OLD_LINE);
  });

  it('shows an edit made through MCP in the history with its author, client and diff', async () => {
    const edit = await callTool(editorMcp, 'specbase_edit_requirement', {
      requirementId,
      patch: `@@ -1,1 +1,1 @@\n-${OLD_LINE}\n+${NEW_LINE}\n`,
    });
    editCommit = String(edit.version);

    const { page } = owner;
    await page.goto(`${harness.baseUrl}${artifactPath}`);
    expect(await page.locator('.artifact-head .meta').innerText()).toContain('Editor Tester');
    await page.getByRole('link', { name: /History/ }).click();
    const newest = page.locator('ol.timeline li').first();
    expect(await newest.innerText()).toMatch(
      /Edit requirement: Typo-tolerant matching[\s\S]*Editor Tester[\s\S]*web-test-client[\s\S]*\+1\s*−1/,
    );
    expect(await page.locator('ol.timeline li').count()).toBe(2);
    await screenshot(page, 'history');

    await newest.getByRole('link').click();
    await page.waitForURL((url) => url.pathname === `${artifactPath}/changes/${editCommit}`);
    expect(await page.locator('table.diff tr.del .code').allInnerTexts()).toEqual([OLD_LINE]);
    expect(await page.locator('table.diff tr.add .code').allInnerTexts()).toEqual([NEW_LINE]);
    // A string, because the test code is typed for Node, not the DOM.
    const background = (selector: string) =>
      page.evaluate<string>(`getComputedStyle(document.querySelector('${selector}')).backgroundColor`);
    const colours = { add: await background('table.diff tr.add'), del: await background('table.diff tr.del') };
    expect(colours.add).not.toBe(colours.del);
    expect(colours.add).not.toBe('rgba(0, 0, 0, 0)');
    await screenshot(page, 'change');
  });

  it('compares any two versions', async () => {
    const { page } = owner;
    await page.goto(`${harness.baseUrl}${artifactPath}/history`);
    await page.getByRole('button', { name: 'Show differences' }).click();
    await page.waitForURL(/\/compare\?from=[0-9a-f]{40}&to=[0-9a-f]{40}/);
    expect(await page.locator('table.diff tr.add .code').allInnerTexts()).toContain(NEW_LINE);
  });

  it('reverts the change after confirming: the document is back and git log shows the revert by the signed-in user', async () => {
    const { page } = owner;
    const headBefore = git(harness.gitdir, 'rev-parse', 'main').trim();
    await page.goto(`${harness.baseUrl}${artifactPath}/changes/${editCommit}`);
    await page.getByRole('link', { name: 'Revert this change' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Revert this change?');
    // The confirmation page itself writes nothing.
    expect(git(harness.gitdir, 'rev-parse', 'main').trim()).toBe(headBefore);
    await screenshot(page, 'revert-confirm');
    await page.getByRole('button', { name: 'Revert this change' }).click();
    await page.waitForURL((url) => url.pathname === artifactPath);
    expect(await page.getByRole('status').innerText()).toContain('reverted');
    expect(await page.locator('.doc').innerText()).toContain(OLD_LINE);

    const raw = await (await page.request.get(`${harness.baseUrl}${artifactPath}/raw`)).text();
    expect(raw).toBe(original);

    const log = git(harness.gitdir, 'log', '-1', '--format=%an <%ae>%n%s%n%b', 'main');
    expect(log).toContain('Demo Owner <demo@example.com>');
    expect(log).toContain(`Revert requirement: ${TITLE}`);
    expect(log).toContain(`This reverts commit ${editCommit}.`);
    expect(log).toMatch(/Client: web/);
  });

  it('restores an older version after confirming', async () => {
    const { page } = owner;
    await page.goto(`${harness.baseUrl}${artifactPath}/changes/${editCommit}`);
    await page.getByRole('link', { name: 'Restore this version' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Restore this version?');
    await page.getByRole('button', { name: 'Restore this version' }).click();
    await page.waitForURL((url) => url.pathname === artifactPath);
    expect(await page.locator('.doc').innerText()).toContain(NEW_LINE);
    const log = git(harness.gitdir, 'log', '-1', '--format=%an%n%s%n%b', 'main');
    expect(log).toContain('Demo Owner');
    expect(log).toContain(`This restores the version of commit ${editCommit}.`);

    await page.goto(`${harness.baseUrl}${artifactPath}/history`);
    const subjects = await page.locator('ol.timeline a.subject').allInnerTexts();
    expect(subjects.map((s) => s.split(':')[0])).toEqual([
      'Restore requirement',
      'Revert requirement',
      'Edit requirement',
      'Create requirement',
    ]);
  });

  it('reports a revert that conflicts with a later change and writes nothing', async () => {
    // A later edit rewrites the line the first edit introduced, so undoing the first edit no longer applies.
    await callTool(editorMcp, 'specbase_edit_requirement', {
      requirementId,
      patch: `@@ -1 +1 @@\n-${NEW_LINE}\n+40% of zero-result searches were typos.\n`,
    });
    const headBefore = git(harness.gitdir, 'rev-parse', 'main').trim();
    const { page } = owner;
    await page.goto(`${harness.baseUrl}${artifactPath}/revert?commit=${editCommit}`);
    await page.getByRole('button', { name: 'Revert this change' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('alert').innerText()).toMatch(/Nothing was written[\s\S]*cannot revert/);
    expect(git(harness.gitdir, 'rev-parse', 'main').trim()).toBe(headBefore);
    await screenshot(page, 'revert-conflict');
  });

  it('lists the changes in the activity feed, newest first, with who and through which client', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Activity' }).click();
    const items = await page.locator('ol.activity li').allInnerTexts();
    expect(items[0]).toMatch(/Editor Tester edited[\s\S]*Typo-tolerant matching[\s\S]*web-test-client/);
    expect(items[1]).toMatch(/Demo Owner restored a version of[\s\S]*Typo-tolerant matching[\s\S]*web/);
    expect(items[2]).toMatch(/Demo Owner reverted a change to[\s\S]*Typo-tolerant matching/);
    await screenshot(page, 'activity');
  });
});
