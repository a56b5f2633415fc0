import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/domain/types.js';
import { startHarness, type Harness, type Persona } from '../../support/harness.js';
import { git, launchBrowser, screenshot, signIn, type SignedIn } from './support.js';

const EDITS = 120;
const TITLE = 'Meeting notes';

describe('web: a long history a reviewer can read, and blame', () => {
  let harness: Harness;
  let browser: Browser;
  let owner: SignedIn;
  let pageId: string;
  let revertedCommit: string;
  let clone: string;
  const commitsOfPage: string[] = [];

  const actorOf = async (persona: Persona, client: string): Promise<Actor> => {
    const principal = await harness.services.control.members.principal(harness.orgId, harness.users[persona].user.id);
    return { principal: principal!, client };
  };
  const base = () => `${harness.baseUrl}/o/${harness.orgId}/a/${pageId}`;
  const timelineCommits = async (url: string): Promise<{ commits: string[]; next?: string }> => {
    await owner.page.goto(url);
    const hrefs = await owner.page
      .locator('ol.timeline > li a.subject, ol.timeline > li p.meta a.mono')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    const next = (await owner.page.locator('a[rel="next"]').count())
      ? await owner.page.locator('a[rel="next"]').getAttribute('href')
      : undefined;
    return { commits: hrefs.map((h) => h.split('/').at(-1)!), ...(next ? { next: harness.baseUrl + next } : {}) };
  };
  const walk = async (url: string): Promise<string[][]> => {
    const pages: string[][] = [];
    for (let at: string | undefined = url; at;) {
      const { commits, next } = await timelineCommits(at);
      pages.push(commits);
      at = next;
    }
    return pages;
  };

  beforeAll(async () => {
    harness = await startHarness();
    const { specs } = harness.services;
    const [web, assistant] = await Promise.all([actorOf('owner', 'web'), actorOf('editor', 'claude-code')]);
    const lines = Array.from({ length: 10 }, (_, i) => `Item ${i}: open`);
    const created = await specs.create(web, 'page', { title: TITLE });
    let version = (
      await specs.save(web, 'page', created.id, {
        body: `# ${TITLE}\n\n${lines.join('\n')}\n`,
        baseVersion: created.version,
      })
    ).version;
    for (let i = 1; i < EDITS; i++) {
      lines[i % 10] = `Item ${i % 10}: decided in round ${i}`;
      const actor = i % 3 === 0 ? assistant : web;
      const saved = await specs.save(actor, 'page', created.id, {
        body: `# ${TITLE}\n\n${lines.join('\n')}\n`,
        baseVersion: version,
        summary: `Round ${i}`,
      });
      version = saved.version;
    }
    pageId = created.id;
    commitsOfPage.push(
      ...git(harness.gitdir, 'log', '--format=%H', `--grep=^Artifact-Id: ${pageId}$`, 'main').trim().split('\n'),
    );
    revertedCommit = commitsOfPage[0]!;
    await specs.revert(web, pageId, revertedCommit);
    commitsOfPage.unshift(git(harness.gitdir, 'rev-parse', 'main').trim());
    clone = await mkdtemp(path.join(os.tmpdir(), 'specbase-blame-'));
    execFileSync('git', ['clone', '--quiet', harness.gitdir, clone]);
    browser = await launchBrowser();
    owner = await signIn(browser, harness, 'owner');
  });

  afterAll(async () => {
    await browser?.close();
    await harness?.close();
    if (clone) await rm(clone, { recursive: true, force: true });
  });

  it('pages through all changes newest first, each once', async () => {
    expect(commitsOfPage).toHaveLength(EDITS + 2);
    const pages = await walk(`${base()}/history`);
    expect(pages.length).toBe(Math.ceil((EDITS + 2) / 25));
    expect(pages.slice(0, -1).every((p) => p.length === 25)).toBe(true);
    expect(pages.flat()).toEqual(commitsOfPage);
    await owner.page.goto(`${base()}/history`);
    await screenshot(owner.page, 'history-long');
    const newest = await owner.page.locator('ol.timeline > li').first().innerText();
    expect(newest).toMatch(/Revert page: Meeting notes/);
    const first = owner.page.locator('ol.timeline > li').nth(1);
    expect(await first.locator('a.subject').innerText()).toBe(`Round ${EDITS - 1}`);
    expect(await first.locator('.first-lines').innerText()).toMatch(
      /−\s*Item 9: decided in round 109\s*\+\s*Item 9: decided in round 119/,
    );
    expect(await first.locator('.counts').innerText()).toMatch(/\+1\s*−1/);
  });

  it('filters by author, by client and by date, across pages', async () => {
    const byEditor = (await walk(`${base()}/history?author=editor%40example.com`)).flat();
    const expected = git(
      harness.gitdir,
      'log',
      '--format=%H',
      '--author=editor@example.com',
      `--grep=^Artifact-Id: ${pageId}$`,
      'main',
    )
      .trim()
      .split('\n');
    expect(byEditor).toEqual(expected);
    expect(byEditor).toHaveLength(Math.floor((EDITS - 1) / 3));
    expect((await walk(`${base()}/history?client=CLAUDE-CODE`)).flat()).toEqual(expected);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await walk(`${base()}/history?since=${today}&until=${today}`)).flat()).toEqual(commitsOfPage);
    expect((await walk(`${base()}/history?since=${tomorrow}`)).flat()).toEqual([]);
    expect(await owner.page.locator('.empty').innerText()).toContain('No changes match');
    const activity = (await walk(`${harness.baseUrl}/o/${harness.orgId}/activity?client=claude-code`)).flat();
    expect(activity).toEqual(expected);
  });

  it('links a revert to the change it undid, and shows changed words inline and side by side', async () => {
    const { page } = owner;
    await page.goto(`${base()}/history`);
    const revert = page.locator('ol.timeline > li').first();
    await revert.getByRole('link', { name: revertedCommit.slice(0, 7) }).click();
    await page.waitForURL((url) => url.pathname.endsWith(`/changes/${revertedCommit}`));
    expect(await page.locator('table.diff ins').allInnerTexts()).toEqual(['119']);
    expect(await page.locator('table.diff del').allInnerTexts()).toEqual(['109']);
    await screenshot(page, 'change-words');
    await page.goto(`${base()}/changes/${commitsOfPage[0]}`);
    expect(await page.locator('.page-head .undoes a').getAttribute('href')).toBe(
      `/o/${harness.orgId}/a/${pageId}/changes/${revertedCommit}`,
    );
    await page.goto(`${base()}/changes/${revertedCommit}`);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(`Round ${EDITS - 1}`);
    await page.getByRole('link', { name: 'Side by side' }).click();
    const row = page.locator('table.diff.split tr', { has: page.locator('td.code.del') });
    expect(await row.locator('td.code.del').innerText()).toBe('Item 9: decided in round 109');
    expect(await row.locator('td.code.add').innerText()).toBe('Item 9: decided in round 119');
    await screenshot(page, 'change-split');
  });

  it('shows an old version whole, title included, with Restore this version', async () => {
    const { page } = owner;
    const old = commitsOfPage[60]!;
    await page.goto(`${base()}/versions/${old}`);
    expect(await page.locator('.old-version h1').innerText()).toBe(TITLE);
    const restore = page.getByRole('link', { name: 'Restore this version' });
    expect(await restore.getAttribute('href')).toBe(`/o/${harness.orgId}/a/${pageId}/restore?commit=${old}`);
    await screenshot(page, 'version');
  });

  it('attributes each line to the commit git blame names in a clone', async () => {
    const file = git(harness.gitdir, 'ls-tree', '-r', '--name-only', 'main')
      .split('\n')
      .find((f) => /^pages\/.*\/meeting-notes-[0-9a-f]{8}\.md$/.test(f))!;
    const porcelain = execFileSync('git', ['-C', clone, 'blame', '--porcelain', 'HEAD', '--', file], {
      encoding: 'utf8',
    });
    const byLine = new Map<number, string>();
    for (const match of porcelain.matchAll(/^([0-9a-f]{40}) \d+ (\d+)/gm)) byLine.set(Number(match[2]), match[1]!);
    const fileLines = [...byLine.keys()].length;

    const { page } = owner;
    await page.goto(base());
    await page.getByRole('link', { name: 'Blame' }).click();
    await page.waitForURL(/\/blame$/);
    await screenshot(page, 'blame');
    const rows = await page.locator('table.blame tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({
        commit: tr.getAttribute('data-commit'),
        line: Number(tr.querySelector('.ln')?.textContent),
        text: tr.querySelector('.code')?.textContent,
      })),
    );
    const body = await (await page.request.get(`${base()}/raw`)).text();
    expect(rows.map((r) => r.text)).toEqual(
      body
        .replace(/\n$/, '')
        .split('\n')
        .map((l) => l || ' '),
    );
    const offset = fileLines - rows.length;
    expect(offset).toBeGreaterThan(0);
    for (const row of rows) expect(row.commit).toBe(byLine.get(row.line + offset));
    const reverted = rows.find((r) => r.text === 'Item 9: decided in round 109')!;
    expect(reverted.commit).toBe(commitsOfPage[0]);
    const first = page.locator('table.blame tr.first').first();
    expect(await first.locator('.who').innerText()).toMatch(/Demo Owner/);
  });
});
