import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { callTool, git, launchBrowser, mainFormCsrf, mcpClient, screenshot, signIn, type SignedIn } from './support.js';

const REQUIREMENT = 'Typo-tolerant matching';

describe('web: edit with a live preview, merge with concurrent edits, create children', () => {
  let harness: Harness;
  let browser: Browser;
  let owner: SignedIn;
  let viewer: SignedIn;
  let editorMcp: Client;
  let requirementId: string;
  let capabilityId: string;

  const head = () => git(harness.gitdir, 'rev-parse', 'main').trim();
  const artifactUrl = (id: string) => `${harness.baseUrl}/o/${harness.orgId}/a/${id}`;
  const rawBody = async (id: string) => (await owner.page.request.get(`${artifactUrl(id)}/raw`)).text();

  beforeAll(async () => {
    harness = await startHarness();
    browser = await launchBrowser();
    editorMcp = await mcpClient(harness.baseUrl, harness.orgId, harness.users.editor.token, 'concurrent-assistant');
    const found = (await callTool(editorMcp, 'specbase_search', { query: REQUIREMENT })) as {
      results: { id: string; type: string }[];
    };
    requirementId = found.results.find((r) => r.type === 'requirement')!.id;
    const product = await callTool(editorMcp, 'specbase_read_product', {});
    const capabilities = (await callTool(editorMcp, 'specbase_list_capabilities', { productId: product.id })) as {
      items: { id: string; title: string }[];
    };
    capabilityId = capabilities.items.find((c) => c.title === 'Catalog and Search')!.id;
    owner = await signIn(browser, harness, 'owner');
    viewer = await signIn(browser, harness, 'viewer');
  });

  afterAll(async () => {
    await editorMcp?.close();
    await browser?.close();
    await harness?.close();
  });

  it('edits with a live preview and saves one commit by the signed-in user, with the summary in the message', async () => {
    const { page } = owner;
    await page.goto(artifactUrl(requirementId));
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.waitForURL(/\/edit$/);
    const original = await page.locator('#body').inputValue();
    expect(original).toBe(await rawBody(requirementId));
    const edited = original.replace('## Rationale', '## Rationale\n\nPreview shows **this sentence** live.');
    await page.locator('#body').fill(edited);
    await page.locator('#preview strong', { hasText: 'this sentence' }).waitFor();
    await page.getByLabel(/Describe your change/).fill('Explain the rationale better');
    await screenshot(page, 'edit-desktop');
    const before = head();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL((url) => url.pathname.endsWith(requirementId) && url.search === '?done=edit');
    expect(await page.locator('.notice.success').innerText()).toContain('saved');
    expect(await page.locator('.doc strong', { hasText: 'this sentence' }).count()).toBe(1);

    expect(git(harness.gitdir, 'rev-parse', 'main~1').trim()).toBe(before);
    const [author, subject, ...rest] = git(harness.gitdir, 'log', '-1', '--format=%an <%ae>%n%s%n%b', 'main')
      .trim()
      .split('\n');
    expect(author).toBe(`${harness.users.owner.user.name} <${harness.users.owner.user.email}>`);
    expect(subject).toBe(`Edit requirement: ${REQUIREMENT}`);
    expect(rest.join('\n')).toContain('Explain the rationale better');
    expect(git(harness.gitdir, 'log', '-1', '--format=%(trailers:key=Client,valueonly)', 'main').trim()).toBe('web');
    expect(await rawBody(requirementId)).toBe(edited);
  });

  it('merges an MCP edit made while the editor was open: both changes are kept', async () => {
    const { page } = owner;
    await page.goto(`${artifactUrl(requirementId)}/edit`);
    const text = await page.locator('#body').inputValue();
    const lines = text.split('\n');
    const last = lines.filter((l) => l.trim()).at(-1)!;
    await callTool(editorMcp, 'specbase_edit_requirement', {
      requirementId,
      patch: `@@ -1 +1 @@\n-${lines[0]}\n+${lines[0]} (reviewed)\n`,
    });
    await page.locator('#body').fill(text.replace(last, `${last} Browser addition.`));
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/\?done=edit$/);
    const saved = await rawBody(requirementId);
    expect(saved).toContain(`${lines[0]} (reviewed)`);
    expect(saved).toContain(`${last} Browser addition.`);
  });

  it('shows a conflicting MCP edit with both texts and writes nothing until it is resolved', async () => {
    const { page } = owner;
    await page.goto(`${artifactUrl(requirementId)}/edit`);
    const text = await page.locator('#body').inputValue();
    const first = text.split('\n')[0]!;
    await callTool(editorMcp, 'specbase_edit_requirement', {
      requirementId,
      patch: `@@ -1 +1 @@\n-${first}\n+# Typo tolerance (assistant)\n`,
    });
    const before = head();
    await page.locator('#body').fill(text.replace(first, '# Typo tolerance (browser)'));
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/edit')),
      page.getByRole('button', { name: 'Save changes' }).click(),
    ]);
    expect(response.status()).toBe(409);
    expect(head()).toBe(before);
    expect(await page.getByRole('alert').first().innerText()).toContain('Nothing was written');
    const merged = await page.locator('#body').inputValue();
    expect(merged).toContain(
      '<<<<<<< your edit\n# Typo tolerance (browser)\n=======\n# Typo tolerance (assistant)\n>>>>>>> current version\n',
    );
    expect(await page.locator('.conflict-changes').innerText()).toContain('Typo tolerance (assistant)');
    await screenshot(page, 'edit-conflict');

    // Saving with the markers still in is refused; resolving them saves against the current version.
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('alert').first().innerText()).toContain('conflict markers');
    expect(head()).toBe(before);
    await page
      .locator('#body')
      .fill(
        merged.replace(/<<<<<<< your edit\n.*\n=======\n(.*)\n>>>>>>> current version\n/, '# Typo tolerance (both)\n'),
      );
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/\?done=edit$/);
    expect((await rawBody(requirementId)).split('\n')[0]).toBe('# Typo tolerance (both)');
  });

  it('creates a feature under a capability and lists it among the capability’s children', async () => {
    const { page } = owner;
    await page.goto(artifactUrl(capabilityId));
    await page.getByRole('link', { name: '+ New feature' }).click();
    await page.getByLabel('Title').fill('Voice search');
    await page.getByRole('button', { name: 'Create feature' }).click();
    await page.waitForURL(/\/edit$/);
    const featureId = new URL(page.url()).pathname.split('/').at(-2)!;
    expect(await page.locator('#body').inputValue()).toMatch(/^# Voice search\n/);
    await page.goto(artifactUrl(capabilityId));
    const features = page.locator('ul.child-list').first();
    expect(await features.getByRole('link', { name: 'Voice search' }).getAttribute('href')).toBe(
      `/o/${harness.orgId}/a/${featureId}`,
    );
    expect(git(harness.gitdir, 'log', '-1', '--format=%s', 'main').trim()).toBe('Create feature: Voice search');
  });

  it('creates a folder and a page inside it', async () => {
    const { page } = owner;
    await page.goto(`${harness.baseUrl}/o/${harness.orgId}`);
    await page.getByRole('link', { name: '+ New page or folder' }).click();
    await page.getByLabel('Name').fill('Research notes');
    await page.getByRole('button', { name: 'Create folder' }).click();
    await page.waitForURL((url) => url.pathname === `/o/${harness.orgId}`);
    await page.getByRole('link', { name: '+ New page or folder' }).click();
    await screenshot(page, 'new-page');
    await page.getByLabel('Title').fill('Interview: night-shift shoppers');
    await page.getByLabel('Folder').selectOption({ label: 'Research notes' });
    await page.getByRole('button', { name: 'Create page' }).click();
    await page.waitForURL(/\/edit$/);
    await page.locator('#body').fill('# Interview: night-shift shoppers\n\nThey shop after 11 pm.\n');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/\?done=edit$/);
    expect(await page.getByRole('navigation', { name: 'Breadcrumb' }).innerText()).toContain('Research notes');
    const files = git(harness.gitdir, 'ls-tree', '-r', '--name-only', 'main').split('\n');
    const folderFile = files.find((f) => /^folders\/.*\/research-notes-[0-9a-f]{8}\.md$/.test(f))!;
    const pageFile = files.find((f) => /^pages\/.*\/interview-night-shift-shoppers-[0-9a-f]{8}\.md$/.test(f))!;
    const folderId = /^id: "?([0-9a-f-]{36})"?$/m.exec(git(harness.gitdir, 'show', `main:${folderFile}`))![1];
    expect(git(harness.gitdir, 'show', `main:${pageFile}`)).toMatch(new RegExp(`^parent: "?${folderId}"?$`, 'm'));
  });

  it('keeps XSS payloads typed into the editor inert, in the preview and once saved', async () => {
    const { page, dialogs } = owner;
    await page.goto(`${artifactUrl(requirementId)}/edit`);
    const text = await page.locator('#body').inputValue();
    const payload = `\n<script>alert('script')</script>\n\n<img src="x" onerror="alert('img')">\n\n[link](javascript:alert('link'))\n\n<svg onload="alert('svg')"></svg>\n\nInert **payloads**.\n`;
    await page.locator('#body').fill(text + payload);
    await page.locator('#preview strong', { hasText: 'payloads' }).waitFor();
    expect(await page.locator('#preview script, #preview [onerror], #preview svg').count()).toBe(0);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/\?done=edit$/);
    expect(await page.locator('.doc script, .doc [onerror], .doc [onload], .doc a[href^="javascript"]').count()).toBe(
      0,
    );
    await page.waitForTimeout(200);
    expect(dialogs).toEqual([]);
  });

  it('shows a viewer no edit or create controls and refuses a forged edit POST with nothing written', async () => {
    const { page } = viewer;
    await page.goto(artifactUrl(capabilityId));
    expect(await page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
    expect(await page.getByRole('link', { name: /^\+ New/ }).count()).toBe(0);
    await page.goto(`${harness.baseUrl}/o/${harness.orgId}`);
    expect(await page.getByRole('link', { name: /^\+ New/ }).count()).toBe(0);
    expect((await page.request.get(`${artifactUrl(requirementId)}/edit`)).status()).toBe(403);

    // A valid CSRF pair of the viewer's own session does not make the viewer an editor.
    await page.goto(`${artifactUrl(requirementId)}/history`);
    const csrfPage = await page.request.get(`${harness.baseUrl}/o/${harness.orgId}/connect`);
    const csrf = mainFormCsrf(await csrfPage.text());
    const before = head();
    const version = git(harness.gitdir, 'rev-parse', 'main').trim();
    const forged = await page.request.post(`${artifactUrl(requirementId)}/edit`, {
      form: { csrf, baseVersion: version, body: '# Defaced\n', summary: '' },
      headers: { origin: harness.baseUrl },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    const crossSite = await owner.page.request.post(`${artifactUrl(requirementId)}/edit`, {
      form: { baseVersion: version, body: '# Defaced\n' },
      headers: { origin: 'http://evil.example' },
      maxRedirects: 0,
    });
    expect(crossSite.status()).toBe(403);
    const forgedCreate = await page.request.post(`${artifactUrl(capabilityId)}/new`, {
      form: { csrf, type: 'feature', title: 'Forged feature' },
      headers: { origin: harness.baseUrl },
      maxRedirects: 0,
    });
    expect(forgedCreate.status()).toBe(403);
    const forgedPage = await page.request.post(`${harness.baseUrl}/o/${harness.orgId}/pages`, {
      form: { csrf, title: 'Forged page' },
      headers: { origin: harness.baseUrl },
      maxRedirects: 0,
    });
    expect(forgedPage.status()).toBe(403);
    expect(head()).toBe(before);
    // The preview writes nothing, but it too answers only our own pages.
    const foreignPreview = await page.request.post(`${harness.baseUrl}/o/${harness.orgId}/preview`, {
      form: { csrf, body: '# Hi' },
      headers: { origin: 'http://evil.example' },
    });
    expect(foreignPreview.status()).toBe(403);
    expect(await rawBody(requirementId)).not.toContain('Defaced');
  });
});
