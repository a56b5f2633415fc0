import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/domain/types.js';
import { BLAME_WINDOW } from '../../../src/web/views/blame.js';
import { bigDocument } from '../../support/big-document.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { launchBrowser, screenshot, signIn, type SignedIn } from './support.js';

/** The bound: no task of the page's main thread longer than this (Chromium's long tasks). */
const LONG_TASK_MS = 200;

/** Long tasks of the page since it started loading, from Chromium's performance timeline (page scripts: no DOM types here). */
const OBSERVE_LONG_TASKS = `window.longTasks = [];
new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.longTasks.push(entry.duration); })
  .observe({ type: 'longtask', buffered: true });`;

async function longestTask(page: Page): Promise<number> {
  // What happens after load counts too: scrolling through, and the tasks that end just after.
  await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight / 2)');
  await page.waitForTimeout(300);
  await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
  await page.waitForTimeout(500);
  const tasks = (await page.evaluate('window.longTasks')) as number[];
  return Math.max(0, ...tasks);
}

describe('web: a document at the size limit (a 956 KB changelog) reads, edits and blames without freezing the page', () => {
  let harness: Harness;
  let browser: Browser;
  let owner: SignedIn;
  let id: string;
  const doc = bigDocument();

  beforeAll(async () => {
    harness = await startHarness();
    const { specs, control } = harness.services;
    const principal = await control.members.principal(harness.orgId, harness.users.owner.user.id);
    const web: Actor = { principal: principal!, client: 'web' };
    const created = await specs.create(web, 'page', { content: doc.text });
    // A second author's change near the top: the blame has more than one change to name; and at
    // the end a code block wider than the page, which scrolls and so must take keyboard focus.
    const edited = `${doc.text.replace(/\n/, '\nAn editor note added after the import.\n')}\n\`\`\`\n${'wide '.repeat(200)}\n\`\`\`\n`;
    const saved = await specs.save(web, 'page', created.id, { body: edited, baseVersion: created.version });
    id = created.id;
    expect(saved.version).not.toBe(created.version);
    browser = await launchBrowser();
    owner = await signIn(browser, harness, 'owner');
    await owner.context.addInitScript({ content: OBSERVE_LONG_TASKS });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  const base = () => `${harness.baseUrl}/o/${harness.orgId}/a/${id}`;

  it('renders each version when it is committed, off the request path, and the page in parts laid out as they near the screen', async () => {
    const { page } = owner;
    // The versions were written before anyone read them: their rendering started then, not with this request.
    const first = await page.goto(base());
    expect(first?.status()).toBe(200);
    expect(['render;desc=cached', 'render;desc=waited']).toContain(first?.headers()['server-timing']);
    expect(await page.locator('.doc.markdown > .doc-part').count()).toBeGreaterThan(20);
    expect(await page.locator('.doc.markdown').textContent()).toContain('An editor note added after the import.');
    const again = await page.goto(base());
    expect(again?.headers()['server-timing']).toBe('render;desc=cached');
    // The last part is not laid out (nor measured) until the reader nears it; then its wide code block is reachable.
    const wide = page.locator('.doc-part').last().locator('pre');
    expect(await wide.getAttribute('tabindex')).toBeNull();
    expect(await longestTask(page)).toBeLessThan(LONG_TASK_MS);
    await expect.poll(() => wide.getAttribute('tabindex')).toBe('0');
    expect(await wide.getAttribute('aria-label')).toBe('Code');
    await screenshot(page, 'big-document');
  });

  it('opens the editor from the same rendering; typing at the end and in the middle does not re-render the megabyte; the saved version is rendered before it is shown', async () => {
    const { page } = owner;
    const previews: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/preview')) previews.push(request.url());
    });
    const opened = await page.goto(`${base()}/edit`);
    expect(opened?.headers()['server-timing']).toBe('render;desc=cached');
    const area = page.getByLabel('Markdown');
    await area.focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('Typed at the end.');
    await page.evaluate(
      '{ const area = document.getElementById("body"); const at = area.value.indexOf("\\n", area.value.length / 2) + 1; area.setSelectionRange(at, at); }',
    );
    await page.keyboard.type('Typed in the middle.\n');
    await page.waitForTimeout(600);
    expect(previews).toEqual([]);
    await page.getByRole('button', { name: 'Update preview' }).click();
    await page.waitForResponse((r) => r.url().endsWith('/preview'));
    expect(previews).toHaveLength(1);
    await expect.poll(() => page.locator('#preview').textContent()).toContain('Typed in the middle.');
    const shown = page.waitForResponse((r) => r.url() === `${base()}?done=edit`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL((url) => url.search === '?done=edit');
    expect((await shown).headers()['server-timing']).not.toBe('render;desc=rendered');
    expect(await page.locator('.doc.markdown').textContent()).toContain('Typed in the middle.');
    const raw = await page.request.get(`${base()}/raw`).then((r) => r.text());
    expect(raw.trimEnd().endsWith('Typed at the end.')).toBe(true);
    expect(raw).toContain('\nTyped in the middle.\n');
  });

  it('blames the document a window of lines at a time', async () => {
    const { page } = owner;
    const response = await page.goto(`${base()}/blame`);
    expect(response?.status()).toBe(200);
    expect(await page.locator('table.blame tbody tr').count()).toBe(BLAME_WINDOW);
    const raw = await page.request.get(`${base()}/raw`).then((r) => r.text());
    const lines = raw.replace(/\n$/, '').split('\n').length;
    expect(await page.locator('.lede').innerText()).toMatch(new RegExp(`${lines} lines from [23] changes`));
    expect(await longestTask(page)).toBeLessThan(LONG_TASK_MS);
    await page.getByRole('link', { name: 'Lines after →' }).first().click();
    await page.waitForURL((url) => url.search === `?from=${BLAME_WINDOW + 1}`);
    expect(await page.locator('table.blame tbody tr .ln').first().innerText()).toBe(String(BLAME_WINDOW + 1));
    expect(await page.getByText(`Lines ${BLAME_WINDOW + 1}–${2 * BLAME_WINDOW} of`).count()).toBeGreaterThan(0);
  });
});
