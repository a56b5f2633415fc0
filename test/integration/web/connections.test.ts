import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionOrganization } from '../../../src/app/provision.js';
import { openGrantAdmin } from '../../../src/auth/index.js';
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

async function connectAssistant(persona: Persona): Promise<Assistant & { callIn(orgId: string): Promise<number> }> {
  const mcpUrl = `${h.baseUrl}/api/mcp/mcp`;
  const resourceMetadataUrl = await discoverFrom401(mcpUrl);
  const provider = new MemoryClientProvider(REDIRECT);
  await auth(provider, { serverUrl: mcpUrl, resourceMetadataUrl });
  const callback = await authorizeInBrowser(new HttpBrowser(), provider.authorizationUrl!.href, {
    email: h.users[persona].user.email,
    password: h.users[persona].password,
    redirectPrefix: REDIRECT,
  });
  await auth(provider, {
    serverUrl: mcpUrl,
    resourceMetadataUrl,
    authorizationCode: callback.searchParams.get('code')!,
  });
  const accessToken = provider.saved!.access_token;
  return { accessToken, call: () => mcpStatus(accessToken), callIn: (orgId) => mcpStatus(accessToken, orgId) };
}

/** The status of an SDK client's connect + tools/list with this bearer token, in the demo organization or another. */
async function mcpStatus(token: string, orgId = h.orgId): Promise<number> {
  const client = new Client({ name: 'Test MCP Client', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL('/api/mcp/mcp', h.baseUrl), {
    requestInit: { headers: { Authorization: `Bearer ${token}`, 'X-Organization-Id': orgId } },
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
  const { stdout } = await runCli([...args, '--json', '--data-dir', h.dataDir], {
    ...process.env,
    SPECBASE_LOG_LEVEL: 'silent',
    SPECBASE_BASE_URL: h.baseUrl,
  });
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

  it('an admin of one organization sees and blocks a member’s token and assistant only there; the member keeps them elsewhere and alone revokes them', async () => {
    // U (the viewer persona) belongs to A (the demo, whose owner is the admin) and to B, where A's owner is not a member.
    const u = h.users.viewer;
    const b = await provisionOrganization(h.services, { name: 'Other tenant', owner: h.users.outsider.user });
    await h.services.control.members.grant({
      orgId: b.org.id,
      userId: u.user.id,
      workspaceId: b.defaultWorkspace.id,
      role: 'viewer',
    });
    const onlyInB = await h.services.control.tokens.create({ userId: u.user.id, name: 'only used in B' });
    expect(await mcpStatus(onlyInB.secret, b.org.id)).toBe(200);
    const assistant = await connectAssistant('viewer');
    for (const orgId of [h.orgId, b.org.id]) {
      expect(await mcpStatus(u.token, orgId)).toBe(200);
      expect(await assistant.callIn(orgId)).toBe(200);
    }
    const token = (await h.services.control.tokens.list(u.user.id)).find((t) => t.name === 'viewer test token')!;
    const usedInA = (await h.services.control.credentialOrgs.list(h.orgId)).find((c) => c.id === token.id)!;

    const owner = await signIn(browser, h, 'owner', `/o/${h.orgId}/connect`);
    try {
      const { page } = owner;
      const member = page.locator('.member-connections[data-member="viewer@example.com"]');
      const names = await member.locator('tbody tr td:first-child').allTextContents();
      expect(names.sort()).toEqual(['Test MCP Client', 'viewer test token']);
      expect(await page.textContent('main')).not.toContain('only used in B');
      const tokenRow = member.locator(`tr[data-token="${token.id}"]`);
      // The last use shown is the one in this organization, nothing about the token elsewhere.
      expect(await tokenRow.locator('time').first().getAttribute('datetime')).toBe(usedInA.lastUsedAt);
      expect(await tokenRow.locator('time').count()).toBe(1);

      owner.answerDialogs('accept');
      await tokenRow.getByRole('button', { name: 'Block here' }).click();
      await page.waitForURL((url) => url.hash === '#h-member-connections');
      expect(await member.locator(`tr[data-token="${token.id}"]`).textContent()).toContain('Blocked here since');
      const grantRow = member.locator('tr[data-grant]');
      await grantRow.getByRole('button', { name: 'Block here' }).click();
      await page.waitForURL((url) => url.hash === '#h-member-connections');
      expect(owner.dialogs).toEqual([
        expect.stringContaining('It keeps working in their other organizations'),
        expect.stringContaining('It keeps working in their other organizations'),
      ]);
    } finally {
      await owner.context.close();
    }

    // Blocked in A with a clear answer, untouched in B.
    expect(await mcpStatus(u.token, h.orgId)).toBe(403);
    expect(await assistant.callIn(h.orgId)).toBe(403);
    const refusal = await fetch(`${h.baseUrl}/api/mcp/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${u.token}`,
        'X-Organization-Id': h.orgId,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(refusal.status).toBe(403);
    expect(((await refusal.json()) as { message: string }).message).toBe(
      'this personal access token is blocked in this organization by an organization admin; it still works in your other organizations',
    );
    expect(await mcpStatus(u.token, b.org.id)).toBe(200);
    expect(await assistant.callIn(b.org.id)).toBe(200);

    const audit = await h.services.control.audit.list({ orgId: h.orgId, userId: h.users.owner.user.id, limit: 50 });
    expect(
      audit
        .filter((e) => e.kind === 'web')
        .map((e) => e.action)
        .sort(),
    ).toEqual(['grant.block', 'token.block']);
    expect(audit.find((e) => e.action === 'token.block')?.detail).toContain('“viewer test token”');

    // Another member is no admin: blocking is "not found" to them, and nothing changes.
    const editor = await signIn(browser, h, 'editor', `/o/${h.orgId}/connect`);
    try {
      const csrf = await editor.page.locator('form[action$="/tokens"] input[name="csrf"]').getAttribute('value');
      const grantId = (await (await openGrantAdmin(h.services.control.db, h.baseUrl)).list([u.user.id]))[0]!.id;
      const attempt = await editor.page.request.post(`${h.baseUrl}/o/${h.orgId}/members/grants/${grantId}/unblock`, {
        form: { csrf: csrf! },
        headers: { Origin: h.baseUrl },
        maxRedirects: 0,
      });
      expect(attempt.status()).toBe(404);
      expect(await assistant.callIn(h.orgId)).toBe(403);
    } finally {
      await editor.context.close();
    }

    // The member sees the block on their own token, and revoking it is theirs: it stops everywhere.
    const self = await signIn(browser, h, 'viewer', `/o/${h.orgId}/connect`);
    try {
      const row = self.page.locator('table.tokens').first().locator('tr', { hasText: 'viewer test token' });
      expect(await row.textContent()).toContain('blocked here');
      self.answerDialogs('accept');
      await row.getByRole('button', { name: 'Revoke' }).click();
      await self.page.waitForURL((url) => url.hash === '#h-tokens');
    } finally {
      await self.context.close();
    }
    expect(await mcpStatus(u.token, b.org.id)).toBe(401);
    expect(await mcpStatus(u.token, h.orgId)).toBe(401);
  });

  it('the CLI lists and revokes tokens and grants', async () => {
    const assistant = await connectAssistant('partial');
    const email = h.users.partial.user.email;
    const { grants } = await specbase('grant', 'list', '--user', email);
    expect(grants).toEqual([
      expect.objectContaining({ clientName: 'Test MCP Client', redirectHost: '127.0.0.1:9', lastUsedAt: null }),
    ]);
    await specbase('grant', 'revoke', '--user', email, '--id', grants[0].id);
    expect(await assistant.call()).toBe(401);
    expect((await specbase('grant', 'list', '--user', email)).grants).toEqual([]);

    const { tokens } = await specbase('token', 'list', '--user', email);
    expect(tokens).toEqual([expect.objectContaining({ name: 'partial test token', revokedAt: null })]);
    expect(JSON.stringify(tokens)).not.toContain(h.users.partial.token);
    // Blocked in one organization only, from the command line too.
    await specbase('token', 'block', '--user', email, '--org', h.orgId, '--id', tokens[0].id);
    expect(await mcpStatus(h.users.partial.token)).toBe(403);
    const listed = await specbase('token', 'list', '--user', email, '--org', h.orgId);
    expect(listed.tokens[0].inOrg).toEqual({ orgId: h.orgId, lastUsedAt: null, blockedAt: expect.any(String) });
    await specbase('token', 'unblock', '--user', email, '--org', h.orgId, '--id', tokens[0].id);
    expect(await mcpStatus(h.users.partial.token)).toBe(200);
    const cliAudit = await h.services.control.audit.list({ orgId: h.orgId, limit: 50 });
    expect(cliAudit.filter((e) => e.kind === 'cli').map((e) => e.action)).toEqual(['token.unblock', 'token.block']);
    await specbase('token', 'revoke', '--user', email, '--id', tokens[0].id);
    expect(await mcpStatus(h.users.partial.token)).toBe(401);
    await expect(specbase('token', 'revoke', '--user', email, '--id', tokens[0].id)).rejects.toThrow(/not found/);
  });
});
