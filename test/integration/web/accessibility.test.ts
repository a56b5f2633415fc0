import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../../../src/control/index.js';
import type { Actor } from '../../../src/domain/types.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { auth, discoverFrom401, MemoryClientProvider } from '../auth/sdk-client.js';
import { axeFindings, scrollsSideways, type Finding } from './axe.js';
import { launchBrowser, signIn } from './support.js';

/** What the pages below need to exist: a changed requirement, a deleted page, a folder, a webhook, a change request. */
interface Fixture {
  readonly org: string;
  readonly requirement: string;
  readonly commit: string;
  readonly folder: string;
  /** An unused invitation to set a password. */
  readonly invitation: string;
  /** Where an MCP client's sign-in asks the signed-in user to allow it (path and query). */
  readonly consent: string;
  /** An open change request with an edit of the requirement. */
  readonly changeRequest: number;
}

interface PageCase {
  readonly name: string;
  readonly path: (f: Fixture) => string;
  /** Puts the page in the state to check after it loads (a typed preview, an open menu). */
  readonly prepare?: (page: Page) => Promise<void>;
}

/**
 * Every page of the application, in the states worth checking. A new page joins by a row here;
 * each row is checked at 1280 and 390 px, in light and dark mode.
 */
const PAGES: readonly PageCase[] = [
  { name: 'home', path: (f) => f.org },
  { name: 'requirement', path: (f) => `${f.org}/a/${f.requirement}` },
  { name: 'history', path: (f) => `${f.org}/a/${f.requirement}/history` },
  { name: 'change', path: (f) => `${f.org}/a/${f.requirement}/changes/${f.commit}` },
  { name: 'change split', path: (f) => `${f.org}/a/${f.requirement}/changes/${f.commit}?view=split` },
  { name: 'version', path: (f) => `${f.org}/a/${f.requirement}/versions/${f.commit}` },
  { name: 'blame', path: (f) => `${f.org}/a/${f.requirement}/blame` },
  { name: 'revert', path: (f) => `${f.org}/a/${f.requirement}/revert?commit=${f.commit}` },
  { name: 'restore', path: (f) => `${f.org}/a/${f.requirement}/restore?commit=${f.commit}` },
  {
    name: 'editor',
    path: (f) => `${f.org}/a/${f.requirement}/edit`,
    prepare: async (page) => {
      await page.locator('#body').focus();
    },
  },
  { name: 'new requirement', path: (f) => `${f.org}/a/${f.requirement}/new?type=acceptance_criterion` },
  { name: 'new page or folder', path: (f) => `${f.org}/pages/new` },
  { name: 'folder', path: (f) => `${f.org}/folders/${f.folder}` },
  { name: 'move', path: (f) => `${f.org}/a/${f.requirement}/move` },
  { name: 'delete', path: (f) => `${f.org}/a/${f.requirement}/delete` },
  { name: 'deleted', path: (f) => `${f.org}/deleted` },
  { name: 'import', path: (f) => `${f.org}/import` },
  { name: 'activity', path: (f) => `${f.org}/activity` },
  { name: 'search', path: (f) => `${f.org}/search?q=typo` },
  { name: 'connect', path: (f) => `${f.org}/connect` },
  { name: 'audit', path: (f) => `${f.org}/audit` },
  { name: 'webhooks', path: (f) => `${f.org}/webhooks` },
  { name: 'members', path: (f) => `${f.org}/members` },
  { name: 'change requests', path: (f) => `${f.org}/cr` },
  { name: 'change request', path: (f) => `${f.org}/cr/${f.changeRequest}` },
  { name: 'invitation', path: (f) => `/invite/${f.invitation}` },
  { name: 'consent', path: (f) => f.consent },
  { name: 'not found', path: (f) => `${f.org}/nowhere` },
  {
    name: 'open menu',
    path: (f) => f.org,
    prepare: async (page) => {
      if (await page.locator('.site-menu > summary').isVisible()) await page.locator('.site-menu > summary').click();
    },
  },
];

const WIDTHS = [1280, 390] as const;
const SCHEMES = ['light', 'dark'] as const;

async function actor(harness: Harness): Promise<Actor> {
  const principal = await harness.services.control.members.principal(harness.orgId, harness.users.owner.user.id);
  return { principal: principal!, client: 'web' };
}

async function consentPath(harness: Harness): Promise<string> {
  const mcpUrl = `${harness.baseUrl}/api/mcp/mcp`;
  const provider = new MemoryClientProvider('http://127.0.0.1:9/callback');
  await auth(provider, { serverUrl: mcpUrl, resourceMetadataUrl: await discoverFrom401(mcpUrl) });
  const url = provider.authorizationUrl!;
  return url.pathname + url.search;
}

async function fixture(harness: Harness): Promise<Fixture> {
  const { specs, control } = harness.services;
  const owner = await actor(harness);
  const [hit] = (
    await specs.search(owner, { query: 'Typo-tolerant matching', artifactTypes: ['requirement'], limit: 1 })
  ).results;
  const current = await specs.read(owner, 'requirement', hit!.id, 'full');
  const { version } = await specs.save(owner, 'requirement', hit!.id, {
    body: current.content.replace('counts as one edit', 'counts as a single edit'),
    baseVersion: current.version,
    summary: 'Clarify transpositions',
  });
  const { changeRequests, proposals } = harness.services.changeRequests;
  const { number: changeRequest } = await changeRequests.open(owner, { title: 'Say phone keyboards' });
  const onBranch = proposals.for(changeRequest, () => undefined);
  const proposed = await onBranch.read(owner, 'requirement', hit!.id, 'full');
  await onBranch.save(owner, 'requirement', hit!.id, {
    body: proposed.content.replace('mobile keyboards', 'phone keyboards'),
    baseVersion: proposed.version,
  });
  const [folder] = await specs.listFolders(owner);
  const [page] = await specs.listPages(owner, folder!.id);
  await specs.delete(owner, page!.id, { recursive: true });
  await control.webhooks.add({
    orgId: harness.orgId,
    url: 'https://hooks.example.com/a-rather-long-path/specbase/receiver',
    events: ['edit'],
    workspaceIds: [harness.defaultWorkspaceId],
    createdBy: harness.users.owner.user.id,
  });
  const { invitation } = await addMember(control, {
    orgId: harness.orgId,
    email: 'invited@example.com',
    name: 'Invited Person',
    workspaceId: harness.defaultWorkspaceId,
    role: 'viewer',
    issuer: 'local',
    addedBy: null,
  });
  return {
    org: `/o/${harness.orgId}`,
    requirement: hit!.id,
    commit: version,
    folder: folder!.id,
    invitation: invitation!.secret,
    consent: await consentPath(harness),
    changeRequest,
  };
}

describe('web: accessibility of every page, light and dark, desktop and phone', () => {
  let harness: Harness;
  let browser: Browser;
  let page: Page;
  let f: Fixture;

  beforeAll(async () => {
    harness = await startHarness();
    browser = await launchBrowser();
    f = await fixture(harness);
    ({ page } = await signIn(browser, harness, 'owner'));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('axe-core (WCAG 2.1 AA and best practice) finds nothing, and no page scrolls sideways on a phone', async () => {
    const found: string[] = [];
    const sideways: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      for (const entry of PAGES) {
        await page.goto(harness.baseUrl + entry.path(f));
        await entry.prepare?.(page);
        if (width < 600 && (await scrollsSideways(page))) sideways.push(entry.name);
        for (const scheme of SCHEMES) {
          await page.emulateMedia({ colorScheme: scheme });
          const report = (findings: Finding[]) =>
            findings.map(
              (x) =>
                `${entry.name} @${width} ${scheme}: ${x.rule} (${x.targets.length}) ${x.targets.slice(0, 3).join(' | ')} — ${x.summary}`,
            );
          found.push(...report(await axeFindings(page)));
        }
      }
    }
    if (found.length) console.log(found.join('\n'));
    expect(sideways).toEqual([]);
    expect(found).toEqual([]);
  }, 180_000);

  it('lands the skip link on the document, before the side tree: Edit is a few Tab stops away', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${harness.baseUrl}${f.org}/a/${f.requirement}`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    const stops: string[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      stops.push(
        (await page.evaluate(
          `(document.activeElement.closest('.side-tree') ? 'tree: ' : '') + document.activeElement.textContent.trim()`,
        )) as string,
      );
    }
    expect(stops.slice(0, stops.indexOf('Edit') + 1).filter((s) => s.startsWith('tree: '))).toEqual([]);
    expect(stops.indexOf('Edit')).toBeGreaterThanOrEqual(0);
  });

  it('finds nothing on the pages before sign-in either: the sign-in form and the signed-out page', async () => {
    const found: string[] = [];
    const context = await browser.newContext();
    const visitor = await context.newPage();
    for (const width of WIDTHS) {
      await visitor.setViewportSize({ width, height: 844 });
      for (const path of [f.org, '/signedout']) {
        await visitor.goto(harness.baseUrl + path);
        if (await scrollsSideways(visitor)) found.push(`${path} @${width} scrolls sideways`);
        for (const scheme of SCHEMES) {
          await visitor.emulateMedia({ colorScheme: scheme });
          found.push(
            ...(await axeFindings(visitor)).map((x) => `${path} @${width} ${scheme}: ${x.rule} ${x.targets[0]}`),
          );
        }
      }
    }
    await context.close();
    expect(found).toEqual([]);
  });
});
