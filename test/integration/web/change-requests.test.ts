import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/domain/types.js';
import { startHarness, type Harness, type Persona } from '../../support/harness.js';
import { axeFindings, scrollsSideways } from './axe.js';
import { git, launchBrowser, signIn, type SignedIn } from './support.js';

const TITLE = 'Typo-tolerant matching';
const LINE = '22% of zero-result searches in the 2024 logs were single-letter typos on mobile keyboards.';
const RESOLVED = '27% of zero-result searches in the 2024 and 2025 logs were single-letter typos.';

describe('web: review change requests, merge one, resolve the conflict of the next in the editor', () => {
  let harness: Harness;
  let browser: Browser;
  let owner: SignedIn;
  let requirementId: string;
  let org: string;

  const actor = async (persona: Persona): Promise<Actor> => {
    const principal = await harness.services.control.members.principal(harness.orgId, harness.users[persona].user.id);
    return { principal: principal!, client: 'claude-code' };
  };

  /** A change request through an assistant that rewrites LINE of the requirement (or nothing yet). */
  const propose = async (persona: Persona, title: string, replacement?: string): Promise<void> => {
    const { changeRequests, proposals } = harness.services.changeRequests;
    const author = await actor(persona);
    const { number } = await changeRequests.open(author, { title });
    if (replacement === undefined) return;
    const onBranch = proposals.for(number, () => undefined);
    const current = await onBranch.read(author, 'requirement', requirementId, 'full');
    await onBranch.save(author, 'requirement', requirementId, {
      body: current.content.replace(LINE, replacement),
      baseVersion: current.version,
    });
  };

  beforeAll(async () => {
    [harness, browser] = await Promise.all([startHarness(), launchBrowser()]);
    org = `${harness.baseUrl}/o/${harness.orgId}`;
    owner = await signIn(browser, harness, 'owner');
    const [hit] = (
      await harness.services.specs.search(await actor('owner'), {
        query: TITLE,
        artifactTypes: ['requirement'],
        limit: 1,
      })
    ).results;
    requirementId = hit!.id;
    await propose('editor', 'Use the 2025 search logs', LINE.replace('2024', '2025'));
    await propose('editor', 'Use the 2026 search logs', LINE.replace('22%', '31%').replace('2024', '2026'));
    await propose('owner', 'Say phone keyboards', LINE.replace('mobile', 'phone'));
    await propose('owner', 'An idea, not written yet');
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('an admin turns on four eyes for the workspace on the Members page, audited', async () => {
    const { changeRequests } = harness.services.changeRequests;
    const [file] = (await changeRequests.detail(await actor('owner'), 1)).files;
    const workspace = (await harness.services.control.workspaces.list(harness.orgId)).find(
      (w) => w.id === file!.workspaceId,
    )!;
    const { page } = owner;
    await page.goto(`${org}/members`);
    const rules = page.getByRole('group', { name: `Review in ${workspace.name}` });
    await rules.getByLabel('The author cannot merge their own change (four eyes)').check();
    await rules.getByRole('button', { name: 'Save review rules' }).click();
    await page.waitForURL(`${org}/members`);
    expect(await rules.getByLabel(/four eyes/).isChecked()).toBe(true);
    expect((await changeRequests.reviewRules(await actor('owner'))).get(workspace.id)).toEqual({
      assistantChangesNeedReview: false,
      authorCannotMerge: true,
    });
  });

  it('lists them, and refuses Merge to their author with the reason: four eyes, or nothing changed yet', async () => {
    const { page } = owner;
    await page.goto(org);
    await page.getByRole('link', { name: 'Reviews' }).click();
    const titles = await page.locator('ol.change-requests a.subject').allInnerTexts();
    expect(titles.sort()).toEqual([
      'An idea, not written yet',
      'Say phone keyboards',
      'Use the 2025 search logs',
      'Use the 2026 search logs',
    ]);

    await page.getByRole('link', { name: 'Say phone keyboards' }).click();
    await page.waitForURL(`${org}/cr/3`);
    expect(await page.getByRole('button', { name: 'Merge into main' }).isDisabled()).toBe(true);
    expect(await page.locator('#merge-why').innerText()).toMatch(/its author cannot merge it.*four eyes/);
    expect(await page.locator('.cr-branch').innerText()).toContain('git diff main...cr/3');

    await page.goto(`${org}/cr/4`);
    expect(await page.locator('#merge-why').innerText()).toContain('it changes nothing yet');
    owner.answerDialogs('accept');
    await page.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL(`${org}/cr/4?done=closed`);
    await page.getByRole('button', { name: 'Reopen' }).click();
    await page.waitForURL(`${org}/cr/4?done=reopened`);
    expect(await page.locator('.page-head .badge').first().innerText()).toMatch(/open/i);
  });

  it('a reviewer reads the combined diff word by word, inline and side by side, comments, and merges (fast-forward)', async () => {
    const { page } = owner;
    await page.goto(`${org}/cr/1`);
    expect(await page.locator('table.diff ins').allInnerTexts()).toEqual(['2025']);
    expect(await page.locator('table.diff del').allInnerTexts()).toEqual(['2024']);
    expect(await page.locator('ol.cr-commits').innerText()).toMatch(
      /Edit requirement: Typo-tolerant matching[\s\S]*Editor Tester/,
    );
    await page.getByRole('link', { name: 'Side by side' }).click();
    await page.waitForURL(`${org}/cr/1?view=split`);
    expect(await page.locator('table.diff.split td.code.add ins').allInnerTexts()).toEqual(['2025']);

    await page.getByLabel('Add a comment').fill('The 2025 logs are the ones we trust.');
    await page.getByRole('button', { name: 'Comment' }).click();
    await page.waitForURL(`${org}/cr/1?done=commented`);
    expect(await page.locator('ol.comments').innerText()).toMatch(
      /Demo Owner[\s\S]*The 2025 logs are the ones we trust\./,
    );
    expect(await axeFindings(page)).toEqual([]);

    const before = git(harness.gitdir, 'rev-parse', 'main').trim();
    const forged = await page.request.post(`${org}/cr/1/merge`, { form: { csrf: 'forged' }, maxRedirects: 0 });
    expect(forged.status()).toBe(403);
    expect(git(harness.gitdir, 'rev-parse', 'main').trim()).toBe(before);
    await page.getByRole('button', { name: 'Merge into main' }).click();
    await page.waitForURL(`${org}/cr/1?done=merged`);
    expect(await page.getByRole('status').innerText()).toContain('Merged');
    // Merged, it keeps its diff: main holds its tip, and it is read from where it parted.
    expect(await page.locator('table.diff ins').allInnerTexts()).toEqual(['2025']);
    expect(git(harness.gitdir, 'rev-parse', 'main^').trim()).toBe(before);
    expect(git(harness.gitdir, 'rev-parse', 'main').trim()).toBe(git(harness.gitdir, 'rev-parse', 'cr/1').trim());
  });

  it('the next one conflicts: resolved in the editor, shown again when main moves meanwhile, then merged with both parents', async () => {
    const { page } = owner;
    await page.goto(`${org}/cr/2`);
    await page.getByRole('button', { name: 'Merge into main' }).click();
    await page.getByRole('heading', { name: 'Resolve conflicts' }).waitFor();
    const editorArea = page.getByLabel(/^Resolved Typo-tolerant matching/);
    const withMarkers = await editorArea.inputValue();
    expect(withMarkers).toMatch(/<<<<<<< main\n.*2025 logs.*\n=======\n.*2026 logs.*\n>>>>>>> proposed\n/);
    const resolve = (text: string) => text.replace(/<<<<<<< main\n[\s\S]*?>>>>>>> proposed\n/, `${RESOLVED}\n`);
    await editorArea.fill(resolve(withMarkers));
    // The live preview follows, without the frontmatter of the whole file.
    const preview = page.locator('#file-0-preview');
    await expect.poll(() => preview.innerText()).toContain(RESOLVED);
    expect(await preview.innerText()).not.toContain('requirementType');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await scrollsSideways(page)).toBe(false);
    expect(await axeFindings(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Someone changes main before the resolution is sent: it is not taken, the conflict is shown again.
    const someone = await actor('owner');
    const current = await harness.services.specs.read(someone, 'requirement', requirementId, 'full');
    await harness.services.specs.save(someone, 'requirement', requirementId, {
      body: current.content.replace('counts as one edit.', 'counts as a single edit.'),
      baseVersion: current.version,
    });
    const movedMain = git(harness.gitdir, 'rev-parse', 'main').trim();
    await page.getByRole('button', { name: 'Merge with these resolutions' }).click();
    await page.getByRole('alert').filter({ hasText: 'Main changed again' }).waitFor();
    expect(git(harness.gitdir, 'rev-parse', 'main').trim()).toBe(movedMain);
    const again = await editorArea.inputValue();
    expect(again).toContain('<<<<<<< main');
    expect(again).toContain('counts as a single edit.');

    await editorArea.fill(resolve(again));
    await page.getByRole('button', { name: 'Merge with these resolutions' }).click();
    await page.waitForURL(`${org}/cr/2?done=merged`);

    const [subject, parents] = git(harness.gitdir, 'log', '-1', '--format=%s%n%P', 'main').trim().split('\n');
    expect(subject).toBe('Merge change request 2: Use the 2026 search logs');
    expect(parents!.split(' ')).toEqual([movedMain, git(harness.gitdir, 'rev-parse', 'cr/2').trim()]);
    const onMain = git(harness.gitdir, 'grep', '-h', 'zero-result searches', 'main');
    expect(onMain).toContain(RESOLVED);
    expect(onMain).not.toMatch(/<<<<<<<|>>>>>>>/);
    const read = await harness.services.specs.read(someone, 'requirement', requirementId, 'full');
    expect(read.content).toContain(RESOLVED);
    expect(read.content).toContain('counts as a single edit.');
  });

  it('records every action in the audit log', async () => {
    const { audit } = harness.services.control;
    const rows = await audit.list({ orgId: harness.orgId, limit: 50 });
    const actions = rows
      .filter((r) => r.kind === 'web' && /change_request|workspace\.review/.test(r.action))
      .map((r) => `${r.action} ${r.outcome}`)
      .reverse();
    expect(actions).toEqual([
      'web.workspace.review ok',
      'web.change_request.close ok',
      'web.change_request.reopen ok',
      'web.change_request.comment ok',
      'web.change_request.merge ok',
      'web.change_request.merge error',
      'web.change_request.merge error',
      'web.change_request.merge ok',
    ]);
    const merged = rows.find((r) => r.action === 'web.change_request.merge' && r.outcome === 'ok');
    expect(merged!.commit).toBe(git(harness.gitdir, 'rev-parse', 'main').trim());
  });
});
