import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { callTool, launchBrowser, mcpClient, screenshot, signIn, type SignedIn } from './support.js';

let h: Harness;
let browser: Browser;
let editorMcp: Client;
let owner: SignedIn;
let requirementId: string;

async function specbase(...args: string[]): Promise<Record<string, any>> {
  const { stdout } = await runCli([...args, '--json', '--data-dir', h.dataDir], {
    ...process.env,
    SPECBASE_LOG_LEVEL: 'silent',
    SPECBASE_BASE_URL: h.baseUrl,
  });
  return JSON.parse(stdout) as Record<string, any>;
}

const auditUrl = (query = '') => `${h.baseUrl}/o/${h.orgId}/audit${query}`;
const rowActions = (signedIn: SignedIn) => signedIn.page.locator('table.audit tbody td.audit-action').allTextContents();

beforeAll(async () => {
  h = await startHarness();
  browser = await launchBrowser();
  editorMcp = await mcpClient(h.baseUrl, h.orgId, h.users.editor.token, 'Claude Test');
  const caps = await callTool(editorMcp, 'specbase_list_capabilities', { productId: h.productId });
  const capabilityId = (caps.items as { id: string }[])[0]!.id;
  const features = await callTool(editorMcp, 'specbase_list_features', { capabilityId });
  const featureId = (features.items as { id: string }[])[0]!.id;
  const requirements = await callTool(editorMcp, 'specbase_list_requirements', { featureId });
  requirementId = (requirements.items as { id: string }[])[0]!.id;
  // A failed call: a patch that matches nothing.
  const failed = await editorMcp.callTool({
    name: 'specbase_edit_requirement',
    arguments: { requirementId, patch: '@@\n-no such line\n+x\n' },
  });
  expect(failed.isError).toBe(true);
  owner = await signIn(browser, h, 'owner');
}, 60_000);

afterAll(async () => {
  await editorMcp?.close();
  await browser?.close();
  await h?.close();
});

describe('the audit log in the web application', () => {
  it('shows an admin who did what, through which client, with the result, and records changes made in the browser', async () => {
    const { page } = owner;
    await page.goto(`${h.baseUrl}/o/${h.orgId}/a/${requirementId}/edit`);
    const text = await page.locator('#body').inputValue();
    await page.locator('#body').fill(`${text}\nAudited line.\n`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL((url) => url.search === '?done=edit');

    await page.goto(`${h.baseUrl}/o/${h.orgId}/connect`);
    await page.getByRole('link', { name: 'Audit' }).click();
    await page.waitForURL(auditUrl());
    await screenshot(page, 'audit-log');
    const actions = await rowActions(owner);
    expect(actions.slice(0, 2)).toEqual(['web.edit', 'signin']);
    expect(actions).toContain('specbase_edit_requirement');
    expect(actions).toContain('specbase_list_capabilities');

    const edit = page.locator('table.audit tbody tr', {
      has: page.locator('td.audit-action', { hasText: 'web.edit' }),
    });
    expect(await edit.locator('td.audit-client').innerText()).toBe('web');
    expect(await edit.locator('td.audit-result').textContent()).toBe('ok');
    expect(await edit.locator(`a[href="/o/${h.orgId}/a/${requirementId}"]`).count()).toBe(1);
    const failed = page.locator('table.audit tbody tr', {
      has: page.locator('td.audit-action', { hasText: 'specbase_edit_requirement' }),
    });
    expect(await failed.locator('td.audit-client').innerText()).toBe('Claude Test');
    expect(await failed.locator('td.audit-result').textContent()).toBe('patch_failed');
    expect(await failed.innerText()).toContain('editor@example.com');
  });

  it('filters by user, client, tool, artifact and day, and pages newest first', async () => {
    const { page } = owner;
    await page.goto(auditUrl());
    await page.getByLabel('User').fill('editor@example.com');
    await page.getByLabel('Client').fill('claude test');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL((url) => url.searchParams.get('user') === 'editor@example.com');
    const filtered = await rowActions(owner);
    expect(filtered.length).toBeGreaterThanOrEqual(4);
    expect(new Set(await page.locator('td.audit-client').allTextContents())).toEqual(new Set(['Claude Test']));

    await page.goto(auditUrl(`?action=specbase_edit_requirement&artifact=${requirementId}`));
    expect(await rowActions(owner)).toEqual(['specbase_edit_requirement']);
    await page.goto(auditUrl('?since=2001-01-01&until=2001-12-31'));
    expect(await page.locator('p.empty').innerText()).toBe('No entries match these filters.');

    // 60 more rows: more than one page of 50.
    for (let i = 0; i < 60; i++) {
      await h.services.control.audit.record({
        kind: 'tool_call',
        userId: h.users.viewer.user.id,
        orgId: h.orgId,
        action: `paging-${String(i).padStart(2, '0')}`,
        artifactId: null,
        commit: null,
        client: 'Pager',
        durationMs: 1,
        outcome: 'ok',
        detail: null,
        at: new Date(Date.UTC(2031, 0, 1, 0, 0, i)).toISOString(),
      });
    }
    await page.goto(auditUrl('?client=Pager'));
    const first = await rowActions(owner);
    expect(first).toHaveLength(50);
    expect(first[0]).toBe('paging-59');
    await page.getByRole('link', { name: 'Older entries →' }).click();
    await page.waitForURL((url) => url.searchParams.has('after') && url.searchParams.get('client') === 'Pager');
    expect(await rowActions(owner)).toEqual(
      Array.from({ length: 10 }, (_, i) => `paging-${String(9 - i).padStart(2, '0')}`),
    );
    await page.getByRole('link', { name: '← Newest' }).click();
    expect((await rowActions(owner))[0]).toBe('paging-59');
  });

  it('exports the filtered log as CSV and JSON', async () => {
    const { page } = owner;
    await page.goto(auditUrl('?client=Pager&since=2031-01-01'));
    const csvHref = await page.getByRole('link', { name: 'CSV' }).getAttribute('href');
    const jsonHref = await page.getByRole('link', { name: 'JSON' }).getAttribute('href');
    const csv = await page.request.get(h.baseUrl + csvHref!);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toContain('text/csv');
    expect(csv.headers()['content-disposition']).toMatch(
      /^attachment; filename="?audit-[0-9a-f-]+-\d{4}-\d{2}-\d{2}\.csv"?$/,
    );
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('at,userEmail,userName,kind,client,action,artifactId,commit,outcome,durationMs,detail');
    expect(lines).toHaveLength(61);
    expect(lines[1]).toContain(',viewer@example.com,Viewer Tester,tool_call,Pager,paging-59,');
    const json = (await (await page.request.get(h.baseUrl + jsonHref!)).json()) as {
      action: string;
      userEmail: string;
    }[];
    expect(json).toHaveLength(60);
    expect(json[0]).toMatchObject({
      action: 'paging-59',
      userEmail: 'viewer@example.com',
      client: 'Pager',
      outcome: 'ok',
    });
  });

  it('refuses anyone but an organization admin: page and exports', async () => {
    const editor = await signIn(browser, h, 'editor');
    try {
      expect(await editor.page.getByRole('link', { name: 'Audit' }).count()).toBe(0);
      const response = await editor.page.goto(auditUrl());
      expect(response!.status()).toBe(403);
      expect(await editor.page.locator('table.audit').count()).toBe(0);
      for (const format of ['csv', 'json'])
        expect((await editor.page.request.get(auditUrl(`/export.${format}`))).status()).toBe(403);
    } finally {
      await editor.context.close();
    }
  });
});

describe('specbase audit', () => {
  it('prints the organization’s log as JSON, newest first, filtered by user, action and date, with revocations', async () => {
    const all = await specbase('audit', '--org', h.orgId, '--limit', '5');
    expect(all.entries).toHaveLength(5);
    expect(all.entries[0].action, JSON.stringify(all.entries)).toBe('paging-59');
    expect(typeof all.next).toBe('string');
    const editor = await specbase(
      'audit',
      '--org',
      h.orgId,
      '--user',
      'editor@example.com',
      '--since',
      new Date().toISOString().slice(0, 10),
    );
    expect(editor.entries.length).toBeGreaterThanOrEqual(4);
    expect(editor.entries.every((e: any) => e.userEmail === 'editor@example.com')).toBe(true);
    // The editor's sign-in (the test above), then their assistant's calls.
    expect(editor.entries[0]).toMatchObject({ kind: 'auth', action: 'signin', orgId: null, client: 'web' });
    expect(editor.entries.find((e: any) => e.outcome === 'error')).toMatchObject({
      kind: 'tool_call',
      action: 'specbase_edit_requirement',
      orgId: h.orgId,
      client: 'Claude Test',
      artifactId: requirementId,
    });
    const token = (await h.services.control.tokens.list(h.users.partial.user.id))[0]!;
    await specbase('token', 'revoke', '--user', 'partial@example.com', '--id', token.id);
    const revoked = await specbase(
      'audit',
      '--org',
      h.orgId,
      '--user',
      'partial@example.com',
      '--action',
      'token.revoke',
    );
    expect(revoked.entries).toEqual([
      expect.objectContaining({
        kind: 'cli',
        client: 'cli',
        orgId: null,
        userEmail: 'partial@example.com',
        detail: expect.stringContaining(token.id),
      }),
    ]);
    const none = await specbase('audit', '--org', h.orgId, '--since', '2040-01-01');
    expect(none).toEqual({ orgId: h.orgId, entries: [], next: null });
  });
});
