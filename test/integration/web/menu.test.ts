import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness, type Persona } from '../../support/harness.js';
import { launchBrowser, signIn, type SignedIn } from './support.js';

const menuOf = (page: Page) => page.locator('header.site nav[aria-label="Organization"] a').allTextContents();

/** Whether everything in the header's bar sits on one line: the same middle for brand, menu, search and sign-out. */
const headerRows = (page: Page) =>
  page.evaluate(`(() => {
    const visible = [...document.querySelectorAll('header.site .brand, header.site .site-menu > summary, header.site nav a, header.site form.search, header.site form.signout')]
      .filter((e) => e.checkVisibility()).map((e) => e.getBoundingClientRect());
    return new Set(visible.map((r) => Math.round((r.top + r.bottom) / 2))).size;
  })()`) as Promise<number>;

describe('web: one menu for every page a member may use, on one line from phone to desktop, titles in the audit log', () => {
  let harness: Harness;
  let browser: Browser;
  const signedIn: Partial<Record<Persona, SignedIn>> = {};

  beforeAll(async () => {
    harness = await startHarness();
    browser = await launchBrowser();
    for (const persona of ['owner', 'editor', 'viewer'] as const)
      signedIn[persona] = await signIn(browser, harness, persona);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('offers each member the pages their standing allows, the same menu on every page', async () => {
    const org = `${harness.baseUrl}/o/${harness.orgId}`;
    const everyone = ['Product', 'Activity', 'Reviews', 'Deleted', 'Connect'];
    const editors = ['Product', 'Activity', 'Reviews', 'Deleted', 'Import', 'Connect'];
    const admin = [...editors, 'Members', 'Audit', 'Webhooks'];
    for (const [persona, expected] of [
      ['owner', admin],
      ['editor', editors],
      ['viewer', everyone],
    ] as const) {
      const { page } = signedIn[persona]!;
      for (const path of ['', '/activity', `/a/${harness.productId}`, '/connect', '/search?q=typo']) {
        await page.goto(org + path);
        expect(await menuOf(page), `${persona} on ${path || 'home'}`).toEqual(expected);
      }
    }
    const { page } = signedIn.owner!;
    for (const [path, current] of [
      ['/audit', 'Audit'],
      ['/webhooks', 'Webhooks'],
      ['/deleted', 'Deleted'],
      ['/import', 'Import'],
    ] as const) {
      await page.goto(org + path);
      expect(await menuOf(page)).toEqual(admin);
      expect(await page.locator('header.site nav a[aria-current="page"]').innerText()).toBe(current);
    }
  });

  it('keeps the header on one line at 1280 px and folds the menu on a phone behind a disclosure', async () => {
    const { page } = signedIn.owner!;
    for (const path of ['/audit', '/webhooks', `/a/${harness.productId}`]) {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${harness.baseUrl}/o/${harness.orgId}${path}`);
      expect(await page.locator('header.site .site-menu > summary').isVisible()).toBe(false);
      expect(await page.getByRole('link', { name: 'Webhooks' }).isVisible()).toBe(true);
      expect(await headerRows(page), `header of ${path} at 1280 px`).toBe(1);
      for (const width of [1024, 768, 390]) {
        await page.setViewportSize({ width, height: 844 });
        expect(await headerRows(page), `header of ${path} at ${width} px`).toBe(1);
        expect(await page.evaluate('document.scrollingElement.scrollWidth <= innerWidth')).toBe(true);
      }
    }
    const menu = page.locator('header.site .site-menu > summary');
    expect(await page.getByRole('link', { name: 'Webhooks' }).isVisible()).toBe(false);
    await menu.click();
    expect(await page.locator('header.site .site-menu').getAttribute('open')).toBe('');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL(/\/webhooks$/);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('serves an icon at /favicon.ico, so no page meets a 404', async () => {
    const missing: string[] = [];
    const { page } = signedIn.viewer!;
    page.on('response', (response) => {
      if (response.status() === 404) missing.push(response.url());
    });
    await page.goto(`${harness.baseUrl}/o/${harness.orgId}`);
    const icon = await fetch(`${harness.baseUrl}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toContain('image/svg+xml');
    expect(missing).toEqual([]);
  });

  it('names each artifact in the audit log by its title as of that change, linking to it', async () => {
    const { page } = signedIn.owner!;
    const org = `${harness.baseUrl}/o/${harness.orgId}`;
    await page.goto(`${org}/search?q=Typo-tolerant`);
    await page.locator('ol.results a').first().click();
    const artifactPath = new URL(page.url()).pathname;
    const rename = async (from: string, to: string) => {
      await page.goto(`${harness.baseUrl}${artifactPath}/edit`);
      await page.locator('#body').fill((await page.locator('#body').inputValue()).replace(`# ${from}`, `# ${to}`));
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.waitForURL((url) => url.pathname === artifactPath);
    };
    await rename('Typo-tolerant matching', 'Fuzzy matching');
    await rename('Fuzzy matching', 'Typo-tolerant matching, renamed');
    await page.goto(`${org}/audit?action=web.edit`);
    const cells = page.locator('table.audit tbody td.audit-artifact a');
    expect(await cells.allTextContents()).toEqual(['Typo-tolerant matching, renamed', 'Fuzzy matching']);
    expect(await cells.first().getAttribute('href')).toBe(artifactPath);
  });
});
