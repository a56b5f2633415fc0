import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { callTool, git, launchBrowser, mcpClient, screenshot, signIn, type SignedIn } from './support.js';

const XSS_TITLE = 'Probe <img src=x onerror=alert("title")>';
const XSS_BODY = [
  `<script>alert('script')</script>`,
  '',
  `<img src="x" onerror="alert('onerror')">`,
  '',
  `[markdown link](javascript:alert('link'))`,
  '',
  `<a href="JaVaScRiPt:alert('a')" onclick="alert('click')">raw link</a>`,
  '',
  `<iframe src="javascript:alert('iframe')"></iframe>`,
  '',
  `<div onmouseover="alert('hover')" style="position:fixed;inset:0;background:red">cover</div>`,
  '',
  `<svg onload="alert('svg')"><circle r="5"/></svg>`,
  '',
  `<style>body { display: none }</style>`,
  '',
  'Plain **bold** text survives.',
];

describe('web: permissions, CSRF, XSS and headers', () => {
  let harness: Harness;
  let browser: Browser;
  let owner: SignedIn;
  let viewer: SignedIn;
  let editorMcp: Client;
  let requirementId: string;
  let editCommit: string;
  let attacker: Server;

  const head = () => git(harness.gitdir, 'rev-parse', 'main').trim();
  const revertPath = () => `/o/${harness.orgId}/a/${requirementId}/revert`;

  beforeAll(async () => {
    harness = await startHarness();
    browser = await launchBrowser();
    editorMcp = await mcpClient(harness.baseUrl, harness.orgId, harness.users.editor.token);
    const found = (await callTool(editorMcp, 'specbase_search', { query: 'Typo-tolerant matching' })) as {
      results: { id: string; type: string }[];
    };
    requirementId = found.results.find((r) => r.type === 'requirement')!.id;
    const edit = await callTool(editorMcp, 'specbase_edit_requirement', {
      requirementId,
      patch: '@@ -1 +1 @@\n-## Rationale\n+## Why\n',
    });
    editCommit = String(edit.version);
    owner = await signIn(browser, harness, 'owner');
    viewer = await signIn(browser, harness, 'viewer');
  });

  afterAll(async () => {
    attacker?.close();
    await editorMcp?.close();
    await browser?.close();
    await harness?.close();
  });

  it('shows a viewer no revert or restore button and refuses the confirmation page', async () => {
    const { page } = viewer;
    await page.goto(`${harness.baseUrl}/o/${harness.orgId}/a/${requirementId}/changes/${editCommit}`);
    expect(await page.locator('table.diff tr.add').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Revert this change' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Restore this version' }).count()).toBe(0);
    await screenshot(page, 'change-as-viewer');
    const confirm = await page.goto(`${harness.baseUrl}${revertPath()}?commit=${editCommit}`);
    expect(confirm?.status()).toBe(403);
  });

  it("refuses a viewer's revert even with a valid CSRF token, and writes nothing", async () => {
    const { page } = viewer;
    await page.goto(`${harness.baseUrl}/o/${harness.orgId}/connect`);
    const csrf = await page.locator('main input[name="csrf"]').first().inputValue();
    const before = head();
    const response = await page.request.post(harness.baseUrl + revertPath(), {
      form: { csrf, commit: editCommit },
      headers: { origin: harness.baseUrl },
    });
    expect(response.status()).toBe(403);
    expect(head()).toBe(before);
  });

  it('refuses forged revert POSTs from an editor session: no token, wrong token, foreign origin', async () => {
    const { page } = owner;
    await page.goto(`${harness.baseUrl}${revertPath()}?commit=${editCommit}`);
    const csrf = await page.locator('main input[name="csrf"]').inputValue();
    const before = head();
    const attempts: { form: Record<string, string>; headers: Record<string, string> }[] = [
      { form: { commit: editCommit }, headers: { origin: harness.baseUrl } },
      { form: { commit: editCommit, csrf: 'x'.repeat(43) }, headers: { origin: harness.baseUrl } },
      { form: { commit: editCommit, csrf }, headers: { origin: 'http://evil.example' } },
      { form: { commit: editCommit, csrf }, headers: {} },
    ];
    for (const attempt of attempts) {
      const response = await page.request.post(harness.baseUrl + revertPath(), { ...attempt, maxRedirects: 0 });
      expect(response.status()).toBe(403);
      expect(await response.text()).toContain('Request refused');
    }
    expect(head()).toBe(before);
  });

  it('refuses a cross-origin form that auto-submits a revert in the signed-in browser', async () => {
    attacker = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><form id="f" method="post" action="${harness.baseUrl}${revertPath()}">
<input name="commit" value="${editCommit}"><input name="csrf" value="guess"></form>
<script>document.getElementById('f').submit()</script>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const before = head();
    const { page } = owner;
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(revertPath()) && r.request().method() === 'POST'),
      page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`),
    ]);
    expect(response.status()).toBe(403);
    expect(head()).toBe(before);
  });

  it('renders markdown with script, event handlers and javascript: links inert', async () => {
    const created = await callTool(editorMcp, 'specbase_create_page', { title: XSS_TITLE });
    const pageId = String(created.id);
    const firstLine = String(created.content).split('\n')[0]!;
    await callTool(editorMcp, 'specbase_edit_page', {
      pageId,
      patch: `@@ -1 +1,${XSS_BODY.length + 2} @@\n ${firstLine}\n+\n${XSS_BODY.map((line) => `+${line}`).join('\n')}\n`,
    });

    const { page, dialogs } = owner;
    await page.goto(`${harness.baseUrl}/o/${harness.orgId}/a/${pageId}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(XSS_TITLE);
    const doc = page.locator('.doc');
    expect(await doc.innerText()).toContain('Plain bold text survives.');
    expect(await doc.locator('strong').count()).toBe(1);
    // A string, because the test code is typed for Node, not the DOM.
    const dangerous = await page.evaluate<{
      scripts: string[];
      handlers: string[];
      jsLinks: string[];
      styled: number;
      embedded: number;
    }>(`(() => {
      const all = [...document.querySelectorAll('*')];
      return {
        scripts: [...document.scripts].map((s) => s.src),
        handlers: all.flatMap((el) => [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => el.tagName + '.' + a.name)),
        jsLinks: [...document.querySelectorAll('[href], [src]')]
          .map((el) => el.getAttribute('href') ?? el.getAttribute('src') ?? '')
          .filter((v) => /^\\s*javascript:/i.test(v)),
        styled: all.filter((el) => el.hasAttribute('style')).length,
        embedded: document.querySelectorAll('.doc iframe, .doc svg, .doc style, .doc object, .doc embed').length,
      };
    })()`);
    expect(dangerous.scripts).toEqual([`${harness.baseUrl}/assets/app.js`]);
    expect(dangerous.handlers).toEqual([]);
    expect(dangerous.jsLinks).toEqual([]);
    expect(dangerous.styled).toBe(0);
    expect(dangerous.embedded).toBe(0);

    await doc.getByText('raw link').click();
    await page.mouse.move(200, 200);
    await page.goto(`${harness.baseUrl}/o/${harness.orgId}`);
    await page.goto(`${harness.baseUrl}/o/${harness.orgId}/a/${pageId}/history`);
    expect(dialogs).toEqual([]);
    await screenshot(page, 'xss-probe');

    const raw = await page.request.get(`${harness.baseUrl}/o/${harness.orgId}/a/${pageId}/raw`);
    expect(raw.headers()['content-type']).toBe('text/markdown; charset=utf-8');
    expect(raw.headers()['x-content-type-options']).toBe('nosniff');
  });

  it('sends security headers on every page', async () => {
    const response = await owner.page.goto(`${harness.baseUrl}/o/${harness.orgId}`);
    const headers = response!.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    const cookies = await owner.context.cookies(harness.baseUrl);
    const csrf = cookies.find((c) => c.name === 'specbase_web_csrf');
    expect(csrf).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  });

  it('hides what a member may not read and organizations they do not belong to', async () => {
    const partial = await signIn(browser, harness, 'partial');
    const home = await partial.page.locator('main').innerText();
    expect(home).not.toContain('Pricing strategy 2026');
    expect(home).toContain('Glossary');

    const restricted = await owner.page.request.get(`${harness.baseUrl}/o/${harness.orgId}`);
    const pricingId = /href="\/o\/[^/]+\/a\/([0-9a-f-]{36})"[^>]*>(?:(?!<\/a>).)*Pricing strategy 2026/s.exec(
      await restricted.text(),
    )![1]!;
    const hidden = await partial.page.goto(`${harness.baseUrl}/o/${harness.orgId}/a/${pricingId}`);
    expect(hidden?.status()).toBe(404);
    expect(await partial.page.locator('main').innerText()).toContain('Artifact not found');

    const outsider = await signIn(browser, harness, 'outsider', '/');
    expect(await outsider.page.locator('main').innerText()).toContain('not a member of any organization');
    const other = await outsider.page.goto(`${harness.baseUrl}/o/${harness.orgId}`);
    expect(other?.status()).toBe(404);
    expect(await outsider.page.locator('main').innerText()).toContain('Organization not found');
  });

  it('sends a visitor who is not signed in to sign-in', async () => {
    const response = await fetch(`${harness.baseUrl}/o/${harness.orgId}/activity`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(
      `/signin?returnTo=${encodeURIComponent(`/o/${harness.orgId}/activity`)}`,
    );
  });
});
