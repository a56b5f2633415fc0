import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { launchBrowser, signIn } from './support.js';

describe('web: signing out', () => {
  let harness: Harness;
  let browser: Browser;

  beforeAll(async () => {
    harness = await startHarness();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it("ends the identity provider's session too: the next visit asks for the password", async () => {
    const { page, context } = await signIn(browser, harness, 'owner');
    await Promise.all([
      page.waitForResponse((r) => r.url() === `${harness.baseUrl}/signout` && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Sign out' }).click(),
    ]);
    await page.waitForLoadState('load');
    const landed = new URL(page.url()).pathname;
    const said = await page.textContent('main');

    await page.goto(`${harness.baseUrl}/`);
    expect(new URL(page.url()).pathname).toMatch(/^\/idp\//);
    await expect(page.getByLabel('Password').isVisible()).resolves.toBe(true);
    expect(landed).toBe('/signedout');
    expect(said).toContain('You are signed out');
    const me = await page.request.get(`${harness.baseUrl}/o/${harness.orgId}`, { maxRedirects: 0 });
    expect(me.status()).toBe(303);
    expect(me.headers().location).toMatch(/^\/signin/);
    await context.close();
  });

  it('does not sign out on a GET or a POST without the CSRF token', async () => {
    const { page, context } = await signIn(browser, harness, 'owner');
    const home = `${harness.baseUrl}/o/${harness.orgId}`;

    const asked = await page.request.get(`${harness.baseUrl}/signout`, { maxRedirects: 0 });
    expect(asked.status()).toBe(200);
    expect(await asked.text()).toContain('name="csrf"');

    for (const form of [{}, { csrf: 'x'.repeat(43) }] as Record<string, string>[]) {
      const refused = await page.request.post(`${harness.baseUrl}/signout`, {
        form,
        headers: { origin: harness.baseUrl },
        maxRedirects: 0,
      });
      expect(refused.status()).toBe(403);
      expect(await refused.text()).toContain('Request refused');
    }
    const csrf = await page.locator('form.signout input[name="csrf"]').inputValue();
    const foreign = await page.request.post(`${harness.baseUrl}/signout`, {
      form: { csrf },
      headers: { origin: 'http://evil.example' },
      maxRedirects: 0,
    });
    expect(foreign.status()).toBe(403);

    const still = await page.request.get(home, { maxRedirects: 0 });
    expect(still.status()).toBe(200);
    await context.close();
  });
});
