import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { auth, discoverFrom401, MemoryClientProvider } from '../auth/sdk-client.js';
import { launchBrowser, screenshot, signIn, type SignedIn } from './support.js';

const noHorizontalScroll = (page: Page) =>
  page.evaluate<boolean>('document.documentElement.scrollWidth <= document.documentElement.clientWidth');

describe('web: navigation through children and the side tree, search that shows why, local times, consent', () => {
  let harness: Harness;
  let browser: Browser;
  let owner: SignedIn;
  let mobile: SignedIn;

  beforeAll(async () => {
    harness = await startHarness();
    browser = await launchBrowser();
    owner = await signIn(browser, harness, 'owner', undefined, { timezoneId: 'Asia/Tokyo', locale: 'en-GB' });
    mobile = await signIn(browser, harness, 'owner', undefined, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
  });

  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('lists each artifact’s children with their types, down from the product', async () => {
    const { page } = owner;
    await page.goto(`${harness.baseUrl}/o/${harness.orgId}/a/${harness.productId}`);
    expect(await page.getByRole('heading', { name: /^Capabilities/ }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: /^User Types/ }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: /^Core Entities/ }).count()).toBe(1);
    await page.locator('.children').getByRole('link', { name: 'Catalog and Search' }).click();
    await page.locator('.children').getByRole('link', { name: 'Product Search' }).click();
    const requirements = page.locator('ul.child-list').first();
    expect(await requirements.locator('li').first().innerText()).toMatch(/Typo-tolerant matching\s*Functional/);
    expect(await requirements.locator('.badge.req').count()).toBe(await requirements.locator('li').count());
    await screenshot(page, 'feature-children');
    await requirements.getByRole('link', { name: 'Typo-tolerant matching' }).click();
    expect(await page.locator('.children').innerText()).toContain('One-letter typo still finds the item');
  });

  it('shows a side tree on wide screens, open down to the current artifact, and hides it on phones', async () => {
    const { page } = owner;
    const tree = page.getByRole('complementary', { name: 'All artifacts' });
    expect(await tree.isVisible()).toBe(true);
    expect(await tree.locator('a[aria-current="page"]').innerText()).toBe('Typo-tolerant matching');
    expect(await tree.locator('details[open] > summary', { hasText: 'Product Search' }).count()).toBe(1);
    expect(await tree.locator('details:not([open]) > summary', { hasText: 'Checkout and Payments' }).count()).toBe(1);
    await mobile.page.goto(page.url());
    expect(await mobile.page.getByRole('complementary', { name: 'All artifacts' }).isVisible()).toBe(false);
    expect(await noHorizontalScroll(mobile.page)).toBe(true);
    await screenshot(mobile.page, 'artifact-mobile');
  });

  it('keeps the home page within a 390-pixel viewport', async () => {
    const { page } = mobile;
    await page.goto(`${harness.baseUrl}/o/${harness.orgId}`);
    expect(await noHorizontalScroll(page)).toBe(true);
    await screenshot(page, 'home-mobile');
  });

  it('highlights the matched words, filters by type and shows each result’s place in the tree', async () => {
    const { page } = owner;
    await page.goto(`${harness.baseUrl}/o/${harness.orgId}/search?q=typo`);
    const first = page.locator('ol.results > li').first();
    expect((await first.locator('.title mark').allInnerTexts()).map((t) => t.toLowerCase())).toContain('typo');
    expect((await page.locator('ol.results .preview mark').allInnerTexts()).length).toBeGreaterThan(0);
    const typeBadges = await page.locator('ol.results > li .badge:not(.req)').allInnerTexts();
    expect(new Set(typeBadges.map((t) => t.toLowerCase())).size).toBeGreaterThan(1);
    await page.locator('#type').selectOption('acceptance_criterion');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/type=acceptance_criterion/);
    const filtered = await page.locator('ol.results > li .badge:not(.req)').allInnerTexts();
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((t) => /acceptance criterion/i.test(t))).toBe(true);
    expect(await page.locator('ol.results > li .crumbs-line').first().innerText()).toMatch(
      /FreshCart › Catalog and Search › Product Search › Typo-tolerant matching/,
    );
    await screenshot(page, 'search-highlight');
  });

  it('searches a long question whole, and says which words it kept past 64', async () => {
    const { page } = owner;
    await page.goto(`${harness.baseUrl}/o/${harness.orgId}`);
    // Words the organization's artifacts hold (the home page's tree of titles): only those can count.
    const held = [...new Set((await page.locator('main').innerText()).toLowerCase().match(/[a-z]{6,}/g) ?? [])];
    expect(held.length).toBeGreaterThan(80);
    const question = `Which ${held.join(' ')} typo?`;
    expect(question.length).toBeGreaterThan(500);
    await page.goto(`${harness.baseUrl}/o/${harness.orgId}/search?q=${encodeURIComponent(question)}`);
    expect(await page.locator('p.notice').innerText()).toMatch(/the 64 rarest were searched/);
    expect(await page.locator('ol.results > li').count()).toBeGreaterThan(0);
  });

  it('shows times in the reader’s time zone with UTC on hover', async () => {
    const { page } = owner;
    await page.goto(`${harness.baseUrl}/o/${harness.orgId}/activity`);
    const time = page.locator('ol.timeline time').first();
    const [datetime, title, text] = await Promise.all([
      time.getAttribute('datetime'),
      time.getAttribute('title'),
      time.innerText(),
    ]);
    expect(title).toMatch(/UTC$/);
    const expected = new Intl.DateTimeFormat('en-GB', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'Asia/Tokyo',
    }).format(new Date(datetime!));
    expect(text).toBe(expected);
  });

  it('shows Approve as the primary action and Deny as a secondary one on the consent screen', async () => {
    const mcpUrl = `${harness.baseUrl}/api/mcp/mcp`;
    const provider = new MemoryClientProvider('http://127.0.0.1:9/callback');
    expect(await auth(provider, { serverUrl: mcpUrl, resourceMetadataUrl: await discoverFrom401(mcpUrl) })).toBe(
      'REDIRECT',
    );
    for (const { page } of [owner, mobile]) {
      await page.goto(provider.authorizationUrl!.href);
      await page.waitForURL(/\/oauth\/consent/);
      const look = (value: string) =>
        page.evaluate<string>(
          `(() => { const s = getComputedStyle(document.querySelector('button[value=${value}]')); return s.backgroundColor + '|' + s.color; })()`,
        );
      const [approve, deny] = await Promise.all([look('approve'), look('deny')]);
      expect(approve).not.toBe(deny);
      expect(await noHorizontalScroll(page)).toBe(true);
    }
    await screenshot(owner.page, 'consent');
  });
});
