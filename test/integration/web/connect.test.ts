import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool, launchBrowser, mcpClient, screenshot, signIn, type SignedIn } from './support.js';

describe('web: connect dialog', () => {
  let harness: Harness;
  let browser: Browser;
  let editor: SignedIn;

  beforeAll(async () => {
    harness = await startHarness();
    browser = await launchBrowser();
    editor = await signIn(browser, harness, 'editor');
    await editor.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.baseUrl });
  });

  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('copies the organization id, which then works in an MCP call', async () => {
    const { page } = editor;
    await page.getByRole('link', { name: 'Connect' }).click();
    await page.waitForURL((url) => url.pathname === `/o/${harness.orgId}/connect`);
    await screenshot(page, 'connect');
    await page.getByRole('button', { name: 'Copy organization ID' }).click();
    const copy = page.locator('button[data-copy-target="org-id"]');
    await expect.poll(() => copy.textContent()).toBe('Copied');
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).toBe(await page.locator('#org-id').textContent());

    const client = await mcpClient(harness.baseUrl, copied, harness.users.editor.token);
    try {
      const product = await callTool(client, 'specbase_read_product', {});
      expect(product.title).toBe('FreshCart');
    } finally {
      await client.close();
    }
  });

  it('shows the MCP URLs and ready-to-paste configuration for each client', async () => {
    const { page } = editor;
    const { baseUrl, orgId } = harness;
    expect(await page.locator('#mcp-url').textContent()).toBe(`${baseUrl}/api/mcp/mcp`);
    expect(await page.locator('#sse-url').textContent()).toBe(`${baseUrl}/api/mcp/sse`);
    expect(await page.locator('#cfg-claude-code').textContent()).toBe(
      `claude mcp add --transport http specbase ${baseUrl}/api/mcp/mcp --header "X-Organization-Id: ${orgId}"`,
    );
    const desktop = JSON.parse((await page.locator('#cfg-claude-desktop').textContent())!);
    expect(desktop.mcpServers.specbase).toEqual({
      command: 'npx',
      args: ['mcp-remote', `${baseUrl}/api/mcp/mcp`, '--header', `X-Organization-Id:${orgId}`],
    });
    const cursor = JSON.parse((await page.locator('#cfg-cursor').textContent())!);
    expect(cursor.mcpServers.specbase).toEqual({
      url: `${baseUrl}/api/mcp/mcp`,
      headers: { 'X-Organization-Id': orgId },
    });
    const vscode = JSON.parse((await page.locator('#cfg-vscode').textContent())!);
    expect(vscode.servers.specbase).toEqual({
      type: 'http',
      url: `${baseUrl}/api/mcp/mcp`,
      headers: { 'X-Organization-Id': orgId },
    });
    expect(await page.locator('#cfg-generic').textContent()).toContain(`X-Organization-Id: ${orgId}`);
    expect(await page.locator('#cfg-git').textContent()).toBe(`git clone ${baseUrl}/git/${orgId}.git`);
  });

  it('writes the manage form into every client configuration when the assistant may delete, move, restore and revert', async () => {
    const { page } = editor;
    const { baseUrl, orgId } = harness;
    await page.goto(`${baseUrl}/o/${orgId}/connect`);
    const allow = page.getByLabel('Let the assistant delete, move, restore and revert');
    expect(await allow.isChecked()).toBe(false);
    expect(await page.locator('#cfg-cursor').textContent()).not.toContain('X-Specbase-Tools');
    await Promise.all([page.waitForURL((url) => url.searchParams.get('manage') === '1'), allow.check()]);
    expect(await page.getByLabel('Let the assistant delete, move, restore and revert').isChecked()).toBe(true);
    await screenshot(page, 'connect-manage');

    expect(await page.locator('#cfg-claude-code').textContent()).toBe(
      `claude mcp add --transport http specbase ${baseUrl}/api/mcp/mcp --header "X-Organization-Id: ${orgId}" --header "X-Specbase-Tools: +manage"`,
    );
    const desktop = JSON.parse((await page.locator('#cfg-claude-desktop').textContent())!);
    expect(desktop.mcpServers.specbase.args).toEqual([
      'mcp-remote',
      `${baseUrl}/api/mcp/mcp`,
      '--header',
      `X-Organization-Id:${orgId}`,
      '--header',
      'X-Specbase-Tools:+manage',
    ]);
    const headers = { 'X-Organization-Id': orgId, 'X-Specbase-Tools': '+manage' };
    const cursor = JSON.parse((await page.locator('#cfg-cursor').textContent())!);
    expect(cursor.mcpServers.specbase).toEqual({ url: `${baseUrl}/api/mcp/mcp`, headers });
    const vscode = JSON.parse((await page.locator('#cfg-vscode').textContent())!);
    expect(vscode.servers.specbase).toEqual({ type: 'http', url: `${baseUrl}/api/mcp/mcp`, headers });
    const generic = (await page.locator('#cfg-generic').textContent())!;
    expect(generic).toContain('Header:  X-Specbase-Tools: +manage');
    expect(generic).toContain(`No headers: ${baseUrl}/api/mcp/o/${orgId}/manage/mcp`);
    expect(await page.locator('#org-path-manage-url').textContent()).toBe(`${baseUrl}/api/mcp/o/${orgId}/manage/mcp`);

    // The configuration as written gives an assistant the manage tools.
    const client = new Client({ name: 'connect-manage', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(cursor.mcpServers.specbase.url), {
        requestInit: {
          headers: { ...cursor.mcpServers.specbase.headers, Authorization: `Bearer ${harness.users.editor.token}` },
        },
      }),
    );
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('specbase_delete_artifact');
    } finally {
      await client.close();
    }

    await Promise.all([
      page.waitForURL((url) => url.searchParams.get('manage') === null),
      page.getByLabel('Let the assistant delete, move, restore and revert').uncheck(),
    ]);
    expect(await page.locator('#cfg-cursor').textContent()).not.toContain('X-Specbase-Tools');
  });

  it('creates a personal access token shown once, which works until revoked', async () => {
    const { page } = editor;
    await page.getByLabel('New token name').fill('Browser test token');
    const [created] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith('/tokens')),
      page.getByRole('button', { name: 'Create token' }).click(),
    ]);
    expect(created.headers()['cache-control']).toBe('no-store');
    await page.waitForLoadState();
    const secret = (await page.locator('#new-token').textContent())!;
    expect(secret).toMatch(/^sbp_/);
    await screenshot(page, 'connect-token-created');

    const client = await mcpClient(harness.baseUrl, harness.orgId, secret);
    await client.close();

    await page.goto(`${harness.baseUrl}/o/${harness.orgId}/connect`);
    expect(await page.content()).not.toContain(secret);
    const row = page.locator('table.tokens tr', { hasText: 'Browser test token' });
    editor.answerDialogs('accept');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL(/\/connect/);
    await expect.poll(() => page.locator('table.tokens tr', { hasText: 'Browser test token' }).count()).toBe(0);
    expect(editor.dialogs.at(-1)).toMatch(/^confirm: Revoke the token “Browser test token”/);
    await expect(mcpClient(harness.baseUrl, harness.orgId, secret)).rejects.toThrow();
  });

  it('gives a new token 90 days unless another lifetime, or never, is chosen', async () => {
    const { page } = editor;
    const create = async (name: string, expires?: string) => {
      await page.goto(`${harness.baseUrl}/o/${harness.orgId}/connect`);
      await page.getByLabel('New token name').fill(name);
      if (expires) await page.getByLabel('Expires').selectOption(expires);
      await page.getByRole('button', { name: 'Create token' }).click();
      await page.locator('#new-token').waitFor();
      // The "Expires" column of the new token's row.
      return page.locator('table.tokens tr', { hasText: name }).locator('td').nth(2);
    };
    await page.goto(`${harness.baseUrl}/o/${harness.orgId}/connect`);
    expect(await page.getByLabel('Expires').inputValue()).toBe('90');
    const days = async (cell: Locator) =>
      (Date.parse((await cell.locator('time').getAttribute('datetime'))!) - Date.now()) / 86_400_000;
    expect(await days(await create('Default lifetime'))).toBeCloseTo(90, 0);
    expect(await days(await create('One week', '7'))).toBeCloseTo(7, 0);
    expect(await (await create('Forever', 'never')).innerText()).toBe('never');
    const tokens = await harness.services.control.tokens.list(harness.users.editor.user.id);
    expect(tokens.find((t) => t.name === 'Forever')?.expiresAt).toBeNull();
  });

  it('shows the read-only and tool-choice forms, and creates a read-only token that only reads', async () => {
    const { page } = editor;
    const { baseUrl, orgId } = harness;
    await page.goto(`${baseUrl}/o/${orgId}/connect`);
    expect(await page.locator('#readonly-url').textContent()).toBe(`${baseUrl}/api/mcp/readonly/mcp`);
    expect(await page.locator('#org-path-readonly-url').textContent()).toBe(
      `${baseUrl}/api/mcp/o/${orgId}/readonly/mcp`,
    );
    expect(await page.locator('#h-urls').locator('..').textContent()).toContain('X-Specbase-Tools: search,read,list');
    await page.getByLabel('New token name').fill('Read-only browser token');
    await page.getByLabel('Read-only').check();
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.locator('#new-token').textContent())!;
    await screenshot(page, 'connect-readonly-token');
    expect(await page.locator('table.tokens tr', { hasText: 'Read-only browser token' }).textContent()).toContain(
      'read-only',
    );

    const client = await mcpClient(baseUrl, orgId, secret);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('specbase_read_product');
      expect(names.some((name) => name.startsWith('specbase_create_') || name.startsWith('specbase_edit_'))).toBe(
        false,
      );
    } finally {
      await client.close();
    }
  });
});
