/**
 * `npm run screenshots`: the whole service with the demo organization on a loopback port,
 * Debian's Chromium driven through each page of the web application at desktop (1280 px) and
 * phone (390 px) widths, one full-page PNG per page and width in test-output/screenshots/; then
 * the MCP Apps in a test host page, in light and dark too (app-screenshots.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { addMember } from '../src/control/index.js';
import type { Actor } from '../src/domain/types.js';
import { launchBrowser, signIn } from '../test/integration/web/support.js';
import { shootApps } from './app-screenshots.js';
import { auth, discoverFrom401, MemoryClientProvider } from '../test/integration/auth/sdk-client.js';
import { startHarness, type Harness, type Persona } from '../test/support/harness.js';

const OUT = path.resolve('test-output/screenshots');
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'mobile', width: 390, height: 844 },
] as const;

async function actor(harness: Harness, persona: Persona, client: string): Promise<Actor> {
  const principal = await harness.services.control.members.principal(harness.orgId, harness.users[persona].user.id);
  if (!principal) throw new Error(`${persona} is not a member of the demo organization`);
  return { principal, client };
}

/** A few changes by two people through two clients, so that history, blame and activity have something to show. */
async function seedChanges(
  harness: Harness,
): Promise<{ requirementId: string; featureId: string; editCommit: string }> {
  const { specs } = harness.services;
  const web = await actor(harness, 'owner', 'web');
  const assistant = await actor(harness, 'editor', 'claude-code');
  const [hit] = (await specs.search(web, { query: 'Typo-tolerant matching', artifactTypes: ['requirement'], limit: 1 }))
    .results;
  const requirementId = hit!.id;
  const featureId = (await specs.read(web, 'requirement', requirementId)).parentId!;
  const edit = async (who: Actor, change: (body: string) => string, summary?: string) => {
    const current = await specs.read(who, 'requirement', requirementId, 'full');
    return specs.save(who, 'requirement', requirementId, {
      body: change(current.content),
      baseVersion: current.version,
      ...(summary ? { summary } : {}),
    });
  };
  await edit(assistant, (b) => b.replace('2024 logs', '2025 logs'), 'Use the 2025 search logs');
  const { version: editCommit } = await edit(
    web,
    (b) =>
      b.replace(
        'Swapping two adjacent letters counts as one edit.',
        'Swapping two adjacent letters counts as a single edit.',
      ),
    'Clarify transpositions',
  );
  await edit(
    assistant,
    (b) => `${b.trimEnd()}\n\n## Open questions\n\n- Should brand names be exempt from typo tolerance?\n`,
  );
  await specs.revert(web, requirementId, editCommit);
  return { requirementId, featureId, editCommit };
}

/**
 * Three change requests on the requirement, the workspace under four eyes: two by an assistant
 * that rewrite the same line (the first merged, so the second conflicts), one by the owner.
 */
async function seedChangeRequests(harness: Harness, requirementId: string): Promise<void> {
  const { changeRequests, proposals } = harness.services.changeRequests;
  const web = await actor(harness, 'owner', 'web');
  const propose = async (who: Actor, title: string, change: (body: string) => string, description = '') => {
    const { number } = await changeRequests.open(who, { title, description });
    const onBranch = proposals.for(number, () => undefined);
    const current = await onBranch.read(who, 'requirement', requirementId, 'full');
    await onBranch.save(who, 'requirement', requirementId, {
      body: change(current.content),
      baseVersion: current.version,
    });
    return number;
  };
  const assistant = await actor(harness, 'editor', 'claude-code');
  const first = await propose(
    assistant,
    'Use the 2026 search logs',
    (b) => b.replace('2025 logs', '2026 logs'),
    "The **2026** logs replace last year's as the basis of the rationale.",
  );
  await propose(assistant, 'Count typos over the last twelve months', (b) =>
    b.replace('in the 2025 logs', 'over the last twelve months'),
  );
  const { workspaceId } = (await changeRequests.detail(web, first)).files[0]!;
  await changeRequests.setReviewRules(web, workspaceId!, {
    assistantChangesNeedReview: false,
    authorCannotMerge: true,
  });
  await propose(web, 'Name the keyboards', (b) => b.replace('mobile keyboards', 'iOS and Android keyboards'));
  await changeRequests.comment(web, first, 'The 2026 logs are the ones we trust now.');
  await changeRequests.merge(web, first);
}

async function shoot(page: Page, name: string, url: string, prepare?: (page: Page) => Promise<void>): Promise<void> {
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto(url);
    if (prepare) await prepare(page);
    await page.screenshot({ path: path.join(OUT, `${name}-${size.name}.png`), fullPage: true });
  }
}

/** A small zip of markdown for the import's dry run: links kept, one left as written, a refusal. */
function sampleImport(): string {
  const file = path.join(OUT, 'import-sample.zip');
  writeFileSync(
    file,
    zipSync({
      'guides/onboarding.md': strToU8(
        '# Onboarding\n\nRead [the release process](release.md#steps) and [[Glossary]].\n',
      ),
      'guides/release.md': strToU8('# Release process\n\n## Steps\n\n![chart](chart.png)\n'),
      'guides/glossary.md': strToU8('---\ntitle: Glossary\naliases: [Terms]\nowner: ana\n---\nWords we use.\n'),
      'guides/epic.md': strToU8('---\ntype: feature\n---\n# An epic without a parent\n'),
    }),
  );
  return file;
}

/** The consent screen an MCP client's sign-in ends on, reached the way a real client reaches it. */
async function consentUrl(harness: Harness): Promise<string> {
  const mcpUrl = `${harness.baseUrl}/api/mcp/mcp`;
  const provider = new MemoryClientProvider('http://127.0.0.1:9/callback');
  const resourceMetadataUrl = await discoverFrom401(mcpUrl);
  if ((await auth(provider, { serverUrl: mcpUrl, resourceMetadataUrl })) !== 'REDIRECT')
    throw new Error('expected a sign-in redirect');
  return provider.authorizationUrl!.href;
}

/** The page a person added on the Members page opens to set their password. */
async function invitationUrl(harness: Harness): Promise<string> {
  const { invitation } = await addMember(harness.services.control, {
    orgId: harness.orgId,
    email: 'new.colleague@example.com',
    name: 'New Colleague',
    workspaceId: harness.defaultWorkspaceId,
    role: 'editor',
    issuer: 'local',
    addedBy: null,
  });
  return `${harness.baseUrl}/invite/${invitation!.secret}`;
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const harness = await startHarness();
  const browser = await launchBrowser();
  try {
    const { requirementId, featureId, editCommit } = await seedChanges(harness);
    const { page } = await signIn(browser, harness, 'owner');
    const org = `${harness.baseUrl}/o/${harness.orgId}`;
    const a = (id: string) => `${org}/a/${id}`;
    const [revert] = await harness.services.specs.history(await actor(harness, 'owner', 'web'), requirementId);

    await shoot(page, 'home', org);
    await shoot(page, 'product', a(harness.productId));
    await shoot(page, 'feature', a(featureId));
    await shoot(page, 'requirement', a(requirementId));
    await shoot(page, 'editor', `${a(requirementId)}/edit`, async (p) => {
      await p
        .locator('#body')
        .fill(
          (await p.locator('#body').inputValue()).replace(
            '## Rationale',
            '## Rationale\n\nA **live** preview follows the typing.',
          ),
        );
      await p.locator('#preview strong', { hasText: 'live' }).waitFor();
    });
    await shoot(page, 'new-requirement', `${a(featureId)}/new?type=requirement`);
    await shoot(page, 'new-page-or-folder', `${org}/pages/new`);
    await shoot(page, 'import', `${org}/import`);
    await shoot(page, 'import-check', `${org}/import`, async (p) => {
      await p.locator('#import-zip').setInputFiles(sampleImport());
      await p.getByRole('button', { name: 'Check the files' }).click();
      await p.getByRole('heading', { name: 'Check the import' }).waitFor();
    });
    await shoot(page, 'history', `${a(requirementId)}/history`);
    await shoot(page, 'history-filtered', `${a(requirementId)}/history?client=claude-code`);
    await shoot(page, 'change-inline', `${a(requirementId)}/changes/${editCommit}`);
    await shoot(page, 'change-split', `${a(requirementId)}/changes/${editCommit}?view=split`);
    await shoot(page, 'version', `${a(requirementId)}/versions/${editCommit}`);
    await shoot(page, 'blame', `${a(requirementId)}/blame`);
    await shoot(page, 'activity', `${org}/activity`);
    await shoot(page, 'search', `${org}/search?q=typo+search`);
    await shoot(page, 'revert-change', `${a(requirementId)}/changes/${revert!.commit}`);
    await shoot(page, 'audit', `${org}/audit`);
    await shoot(page, 'webhooks', `${org}/webhooks`);
    await shoot(page, 'connect', `${org}/connect`);
    await shoot(page, 'deleted', `${org}/deleted`);
    await shoot(page, 'members', `${org}/members`);
    await seedChangeRequests(harness, requirementId);
    await shoot(page, 'change-requests', `${org}/cr?state=all`);
    await shoot(page, 'change-request-merged', `${org}/cr/1`);
    await shoot(page, 'change-request-split', `${org}/cr/1?view=split`);
    await shoot(page, 'change-request-four-eyes', `${org}/cr/3`);
    await shoot(page, 'change-request-conflict', `${org}/cr/2`, async (p) => {
      await p.getByRole('button', { name: 'Merge into main' }).click();
      await p.getByRole('heading', { name: 'Resolve conflicts' }).waitFor();
    });
    await shoot(page, 'invitation', await invitationUrl(harness));
    await shoot(page, 'menu-open', org, async (p) => {
      const fold = p.locator('.site-menu > summary');
      if (await fold.isVisible()) await fold.click();
    });
    await shoot(page, 'consent', await consentUrl(harness));
    await shootApps(browser, harness, requirementId, OUT);
    console.log(`screenshots written to ${OUT}`);
  } finally {
    await browser.close();
    await harness.close();
  }
}

await main();
