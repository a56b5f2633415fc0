import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { selfSignedCertificate, type SelfSigned } from '../https/certificate.js';
import { waitUntil } from '../replicas/cluster.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { callTool, launchBrowser, mcpClient, screenshot, signIn, type SignedIn } from './support.js';

let cert: SelfSigned;
let receiver: Receiver;
let h: Harness;
let browser: Browser;
let owner: SignedIn;
let assistant: Client;

beforeAll(async () => {
  cert = await selfSignedCertificate();
  receiver = await startReceiver(cert);
  h = await startHarness({
    env: {
      SPECBASE_WEBHOOK_CA_FILE: cert.certFile,
      SPECBASE_WEBHOOK_ALLOW_LOOPBACK_HOST: `127.0.0.1:${receiver.port}`,
    },
  });
  browser = await launchBrowser();
  owner = await signIn(browser, h, 'owner', `/o/${h.orgId}/connect`);
  assistant = await mcpClient(h.baseUrl, h.orgId, h.users.editor.token, 'Claude Test');
}, 60_000);

afterAll(async () => {
  await assistant?.close();
  await browser?.close();
  await h?.close();
  await receiver?.stop().catch(() => undefined);
});

describe('the webhooks page', () => {
  it('an admin adds an endpoint, sees its secret once, sends a test event, and reads every attempt', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL(`${h.baseUrl}/o/${h.orgId}/webhooks`);
    await page.getByLabel('Endpoint URL').fill('http://example.com/hook');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    expect(await page.locator('.notice.error').innerText()).toContain('must be https');
    await page.getByLabel('Endpoint URL').fill('https://169.254.169.254/latest');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    expect(await page.locator('.notice.error').innerText()).toBe(
      'the address is not allowed: private, loopback or link-local',
    );

    await page.getByLabel('Endpoint URL').fill(receiver.url('browser'));
    await page.getByLabel('delete').uncheck();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = await page.locator('#new-secret').innerText();
    expect(secret).toMatch(/^whsec_/);
    receiver.secrets.set('browser', secret);
    const section = page.locator('.webhook');
    expect(await section.locator('.webhook-events').innerText()).toBe(
      'create, edit, restore, move, revert, change_request',
    );
    expect(await section.locator('.webhook-workspaces').innerText()).toBe('Default');

    await section.getByRole('button', { name: 'Send test event' }).click();
    await page.waitForURL((url) => url.hash.startsWith('#webhook-'));
    expect(await page.locator('#new-secret').count()).toBe(0);
    const testRow = page.locator('table.attempts tbody tr').first();
    expect(await testRow.locator('td.attempt-code').innerText()).toBe('204');
    expect(await testRow.locator('td.attempt-state').innerText()).toBe('delivered');
    expect(receiver.of('browser').map((e) => e.type)).toEqual(['webhook.test']);

    const requirements = await callTool(assistant, 'specbase_search', {
      query: 'typo tolerance',
      artifactTypes: ['requirement'],
    });
    const requirementId = (requirements.results as { id: string }[])[0]!.id;
    const current = (await callTool(assistant, 'specbase_read_requirement', { requirementId, mode: 'full' }))
      .content as string;
    await callTool(assistant, 'specbase_edit_requirement', {
      requirementId,
      patch: `@@\n ${current.split('\n')[0]}\n+\n+Webhook line.\n`,
    });
    await waitUntil(
      async () => receiver.of('browser').length === 2,
      10_000,
      () => 'the edit was not delivered',
    );
    expect(receiver.of('browser')[1]).toMatchObject({
      type: 'artifact.edit',
      data: { client: 'Claude Test', artifact: { id: requirementId } },
    });
    await page.reload();
    expect(await page.locator('table.attempts tbody tr').first().locator('td.mono').first().innerText()).toBe('edit');
    const figures = section.locator('[data-metrics]');
    expect(await figures.locator('[data-metric="delivered"]').innerText()).toBe('2');
    expect(await figures.locator('[data-metric="failed"]').innerText()).toBe('0');
    expect(await figures.locator('[data-metric="latency"]').innerText()).toMatch(/^\d+ ms \/ \d+ ms$/);
    expect(await figures.locator('[data-metric="queued"]').innerText()).toBe('0');
    expect(await figures.locator('[data-metric="last-error"]').innerText()).toBe('none');
    await screenshot(page, 'webhooks');
    expect(receiver.rejected).toEqual([]);
  });

  it('tells the admin when an endpoint fell so far behind that events were dropped', async () => {
    const { page } = owner;
    const [endpoint] = await h.services.control.webhooks.list(h.orgId);
    await h.services.control.db.run('UPDATE webhook_endpoints SET dropped = 3, dropped_at = ? WHERE id = ?', [
      new Date().toISOString(),
      endpoint!.id,
    ]);
    await page.goto(`${h.baseUrl}/o/${h.orgId}/webhooks`);
    expect(await page.locator(`#webhook-${endpoint!.id} [data-dropped]`).innerText()).toContain('3 events dropped');
    await h.services.control.db.run('UPDATE webhook_endpoints SET dropped = 0, dropped_at = NULL WHERE id = ?', [
      endpoint!.id,
    ]);
  });

  it('shows an endpoint disabled after a day of failures with its reason, and enables it again', async () => {
    const { page } = owner;
    const [endpoint] = await h.services.control.webhooks.list(h.orgId);
    await h.services.control.db.run('UPDATE webhook_endpoints SET disabled_at = ?, disabled_reason = ? WHERE id = ?', [
      new Date().toISOString(),
      'every delivery failed for a day; the last: HTTP 503',
      endpoint!.id,
    ]);
    await page.goto(`${h.baseUrl}/o/${h.orgId}/webhooks`);
    const notice = page.locator('.webhook .notice.error');
    expect(await notice.innerText()).toContain('every delivery failed for a day; the last: HTTP 503');
    expect(await page.locator('.webhook').getByRole('button', { name: 'Send test event' }).count()).toBe(0);
    await notice.getByRole('button', { name: 'Enable again' }).click();
    await page.waitForURL((url) => url.hash === `#webhook-${endpoint!.id}`);
    expect(await page.locator('.webhook .notice.error').count()).toBe(0);
    expect(await page.locator('.webhook').getByRole('button', { name: 'Send test event' }).count()).toBe(1);
    expect((await h.services.control.webhooks.get(h.orgId, endpoint!.id))!.disabledAt).toBeNull();
  });

  it('removes an endpoint, and refuses anyone but an organization admin', async () => {
    const { page } = owner;
    owner.answerDialogs('accept');
    await page.goto(`${h.baseUrl}/o/${h.orgId}/webhooks`);
    await page.locator('.webhook').getByRole('button', { name: 'Remove' }).click();
    await page.waitForURL(`${h.baseUrl}/o/${h.orgId}/webhooks`);
    expect(await page.locator('.webhook').count()).toBe(0);
    expect(await h.services.control.webhooks.list(h.orgId)).toEqual([]);
    const actions = (await h.services.control.audit.page({ orgId: h.orgId, limit: 20, client: 'web' })).entries.map(
      (e) => e.action,
    );
    expect(actions).toEqual(
      expect.arrayContaining(['web.webhook.add', 'web.webhook.test', 'web.webhook.enable', 'web.webhook.remove']),
    );

    const editor = await signIn(browser, h, 'editor');
    try {
      expect((await editor.page.goto(`${h.baseUrl}/o/${h.orgId}/webhooks`))!.status()).toBe(403);
      const csrf = await editor.page.locator('input[name="csrf"]').first().inputValue();
      const post = await editor.page.request.post(`${h.baseUrl}/o/${h.orgId}/webhooks`, {
        form: { csrf, url: 'https://example.com/', events: 'edit', workspaces: h.defaultWorkspaceId },
        headers: { Origin: h.baseUrl },
      });
      expect(post.status()).toBe(403);
      expect(await h.services.control.webhooks.list(h.orgId)).toEqual([]);
    } finally {
      await editor.context.close();
    }
  });
});
