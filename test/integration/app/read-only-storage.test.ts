import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { call, callError, connect } from '../mcp/clients.js';
import { launchBrowser, signIn, type SignedIn } from '../web/support.js';

/**
 * The organizations' repositories on a read-only file system, made so while the service runs:
 * `data/orgs` bind-mounted onto itself read-only (root, which the tests run as, ignores file
 * modes, so chmod would not do). The control plane (specbase.db) stays writable, so sign-in and
 * the audit log keep working and only the repositories fail, as when their volume goes bad.
 */
function mountable(): boolean {
  try {
    execFileSync('mount', ['--version'], { stdio: 'ignore' });
    return process.getuid?.() === 0;
  } catch {
    return false;
  }
}

describe.skipIf(!mountable())('with the repositories on a read-only file system', () => {
  let h: Harness;
  let client: Client;
  let featureId: string;
  let orgs: string;
  let mounted = false;
  let browser: Browser;
  let editor: SignedIn;

  const readOnly = () => {
    execFileSync('mount', ['--bind', orgs, orgs]);
    mounted = true;
    execFileSync('mount', ['-o', 'remount,bind,ro', orgs]);
  };
  const writable = () => {
    if (mounted) execFileSync('umount', [orgs]);
    mounted = false;
  };
  const head = () => execFileSync('git', ['--git-dir', h.gitdir, 'rev-parse', 'main'], { encoding: 'utf8' }).trim();

  beforeAll(async () => {
    h = await startHarness();
    orgs = path.join(h.dataDir, 'orgs');
    client = await connect(h, 'editor');
    const product = await call(client, 'specbase_read_product');
    const capabilities = await call(client, 'specbase_list_capabilities', { productId: product.data.id });
    featureId = (
      await call(client, 'specbase_create_feature', {
        capabilityId: capabilities.data.items[0].id,
        title: 'Offline ordering',
      })
    ).data.id;
    browser = await launchBrowser();
    editor = await signIn(browser, h, 'editor');
  });

  afterAll(async () => {
    writable();
    await client?.close();
    await browser?.close();
    await h?.close();
  });

  it('an edit says the server cannot write, /healthz is not ready, and both recover once the disk is writable', async () => {
    const before = head();
    readOnly();
    try {
      const message = await callError(client, 'specbase_edit_feature', {
        featureId,
        patch: '@@\n ## Notes\n+Written while read-only.\n',
      });
      expect(message).toMatch(/^the server cannot write \(read-only file system\)/);
      expect(message).not.toMatch(/internal error/);
      const health = await fetch(`${h.baseUrl}/healthz`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({
        status: 'unavailable',
        reason: expect.stringMatching(/cannot write \(read-only file system\)/),
      });
      // Reads still work.
      expect((await call(client, 'specbase_read_feature', { featureId })).data.id).toBe(featureId);
    } finally {
      writable();
    }
    expect(head()).toBe(before);
    expect((await fetch(`${h.baseUrl}/healthz`)).status).toBe(200);
    const edit = await call(client, 'specbase_edit_feature', {
      featureId,
      patch: '@@\n ## Notes\n+Written once writable again.\n',
    });
    expect(edit.data.added).toBe(1);
  });

  it('the web editor says so too and keeps the typed text; saving works again once the disk is writable', async () => {
    const { page } = editor;
    await page.goto(`${h.baseUrl}/o/${h.orgId}/a/${featureId}/edit`);
    const typed = `${await page.locator('#body').inputValue()}\nTyped while the disk was read-only.\n`;
    await page.locator('#body').fill(typed);
    readOnly();
    try {
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/edit') && r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Save changes' }).click(),
      ]);
      expect(response.status()).toBe(503);
      expect(await page.locator('.notice.error').innerText()).toContain(
        'the server cannot write (read-only file system)',
      );
      expect(await page.locator('#body').inputValue()).toBe(typed);
    } finally {
      writable();
    }
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/\?done=edit$/);
  });
});

describe('forms larger than their limit', () => {
  let h: Harness;
  let browser: Browser;
  let owner: SignedIn;

  beforeAll(async () => {
    h = await startHarness();
    browser = await launchBrowser();
    owner = await signIn(browser, h, 'owner');
  });

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('are answered with a 413 page saying so, not a JSON 500', async () => {
    const { page } = owner;
    await page.goto(`${h.baseUrl}/o/${h.orgId}/connect`);
    const csrf = await page.locator('input[name="csrf"]').first().inputValue();
    for (const [path, form] of [
      [`/o/${h.orgId}/tokens`, { csrf, name: 'x'.repeat(10_000) }],
      [`/o/${h.orgId}/pages`, { csrf, title: 'x'.repeat(20_000) }],
    ] as const) {
      const response = await page.request.post(`${h.baseUrl}${path}`, {
        form,
        headers: { origin: h.baseUrl },
        maxRedirects: 0,
      });
      expect(response.status(), path).toBe(413);
      expect(response.headers()['content-type']).toMatch(/^text\/html/);
      expect(await response.text()).toMatch(/larger than this form accepts \(at most \d+ KiB\)/);
    }
  });
});
