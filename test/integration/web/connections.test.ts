import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { startHarness, type Harness, type Persona } from '../../support/harness.js';
import { authorizeInBrowser, HttpBrowser } from '../auth/browser.js';
import { auth, discoverFrom401, MemoryClientProvider } from '../auth/sdk-client.js';
import { launchBrowser, signIn } from './support.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

/** An assistant connected through the real OAuth flow, and a plain MCP call with its token. */
interface Assistant {
  readonly accessToken: string;
  call(): Promise<number>;
}

let h: Harness;
let browser: Browser;

async function connectAssistant(persona: Persona): Promise<Assistant> {
  const mcpUrl = `${h.baseUrl}/api/mcp/mcp`;
  const resourceMetadataUrl = await discoverFrom401(mcpUrl);
  const provider = new MemoryClientProvider(REDIRECT);
  await auth(provider, { serverUrl: mcpUrl, resourceMetadataUrl });
  const callback = await authorizeInBrowser(new HttpBrowser(), provider.authorizationUrl!.href, {
    email: h.users[persona].user.email,
    password: h.users[persona].password,
    redirectPrefix: REDIRECT,
  });
  await auth(provider, { serverUrl: mcpUrl, resourceMetadataUrl, authorizationCode: callback.searchParams.get('code')! });
  const accessToken = provider.saved!.access_token;
  return { accessToken, call: () => mcpStatus(accessToken) };
}

/** The status of an SDK client's connect + tools/list with this bearer token. */
async function mcpStatus(token: string): Promise<number> {
  const client = new Client({ name: 'Test MCP Client', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL('/api/mcp/mcp', h.baseUrl), {
    requestInit: { headers: { Authorization: `Bearer ${token}`, 'X-Organization-Id': h.orgId } },
  });
  try {
    await client.connect(transport);
    await client.listTools();
    return 200;
  } catch (error) {
    return Number(/HTTP (\d{3})/.exec(String(error))?.[1] ?? (error as { code?: number }).code ?? 0);
  } finally {
    await client.close().catch(() => undefined);
  }
}

async function specbase(...args: string[]): Promise<Record<string, any>> {
  const { stdout } = await runCli([...args, '--json', '--data-dir', h.dataDir], { ...process.env, SPECBASE_LOG_LEVEL: 'silent', SPECBASE_BASE_URL: h.baseUrl });
  return JSON.parse(stdout) as Record<string, any>;
}

beforeAll(async () => {
  h = await startHarness();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe('connections a user can see and cut', () => {
  it('the Connect page lists an OAuth assistant with its name, redirect host and times; Revoke ends its next call with 401', async () => {
    const assistant = await connectAssistant('editor');
    expect(await assistant.call()).toBe(200);
    const editor = await signIn(browser, h, 'editor', `/o/${h.orgId}/connect`);
    try {
      const { page } = editor;
      const row = page.locator('table.grants tbody tr');
      await expect.poll(() => row.count()).toBe(1);
      const cells = await row.locator('td').allTextContents();
      expect(cells.slice(0, 2)).toEqual(['Test MCP Client', '127.0.0.1:9']);
      // Connected and last used are both times (the assistant made a call).
      const times = await row.locator('time').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('datetime')));
      expect(times).toHaveLength(2);
      for (const time of times) expect(Date.now() - Date.parse(time!)).toBeLessThan(10 * 60_000);
      expect(await page.locator('#h-member-connections').count()).toBe(0);
      editor.answerDialogs('accept');
      await row.getByRole('button', { name: 'Revoke' }).click();
      await page.waitForURL((url) => url.hash === '#h-grants');
      expect(await page.locator('table.grants').count()).toBe(0);
      expect(editor.dialogs).toEqual([expect.stringContaining('Disconnect “Test MCP Client”')]);
    } finally {
      await editor.context.close();
    }
    expect(await assistant.call()).toBe(401);
  });

  it('an organization admin sees members’ assistants and tokens and revokes them; a non-admin cannot', async () => {
    const assistant = await connectAssistant('viewer');
    const owner = await signIn(browser, h, 'owner', `/o/${h.orgId}/connect`);
    try {
      const { page } = owner;
      const viewer = page.locator('.member-connections[data-member="viewer@example.com"]');
      expect(await viewer.locator('table.grants td').first().textContent()).toBe('Test MCP Client');
      expect(await viewer.locator('table.member-tokens td').first().textContent()).toBe('viewer test token');
      owner.answerDialogs('accept');
      await viewer.locator('table.member-tokens').getByRole('button', { name: 'Revoke' }).click();
      await page.waitForURL((url) => url.hash === '#h-tokens');
      expect(await mcpStatus(h.users.viewer.token)).toBe(401);
      expect(await assistant.call()).toBe(200);
      await page.locator('.member-connections[data-member="viewer@example.com"] table.grants').getByRole('button', { name: 'Revoke' }).click();
      await page.waitForURL((url) => url.hash === '#h-grants');
      expect(await assistant.call()).toBe(401);
    } finally {
      await owner.context.close();
    }
    // An editor is no organization admin: another member's token is "not found" to them.
    const editor = await signIn(browser, h, 'editor', `/o/${h.orgId}/connect`);
    try {
      const partialToken = (await h.services.control.tokens.list(h.users.partial.user.id))[0]!;
      const csrf = await editor.page.locator('form[action$="/tokens"] input[name="csrf"]').getAttribute('value');
      const response = await editor.page.request.post(`${h.baseUrl}/o/${h.orgId}/tokens/${partialToken.id}/revoke`, {
        form: { csrf: csrf! },
        headers: { Origin: h.baseUrl },
        maxRedirects: 0,
      });
      expect(response.status()).toBe(404);
      expect(await mcpStatus(h.users.partial.token)).toBe(200);
    } finally {
      await editor.context.close();
    }
  });

  it('the CLI lists and revokes tokens and grants', async () => {
    const assistant = await connectAssistant('partial');
    const email = h.users.partial.user.email;
    const { grants } = await specbase('grant', 'list', '--user', email);
    expect(grants).toEqual([expect.objectContaining({ clientName: 'Test MCP Client', redirectHost: '127.0.0.1:9', lastUsedAt: null })]);
    await specbase('grant', 'revoke', '--user', email, '--id', grants[0].id);
    expect(await assistant.call()).toBe(401);
    expect((await specbase('grant', 'list', '--user', email)).grants).toEqual([]);

    const { tokens } = await specbase('token', 'list', '--user', email);
    expect(tokens).toEqual([expect.objectContaining({ name: 'partial test token', revokedAt: null })]);
    expect(JSON.stringify(tokens)).not.toContain(h.users.partial.token);
    await specbase('token', 'revoke', '--user', email, '--id', tokens[0].id);
    expect(await mcpStatus(h.users.partial.token)).toBe(401);
    await expect(specbase('token', 'revoke', '--user', email, '--id', tokens[0].id)).rejects.toThrow(/not found/);
  });
});
