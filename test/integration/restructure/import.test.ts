import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { startHarness, type Harness, type Persona } from '../../support/harness.js';
import { call, connect } from '../mcp/clients.js';
import { launchBrowser, signIn } from '../web/support.js';

/** `specbase import`: 500 files, bad ones among them; one commit per artifact, a re-run skips them. */
let h: Harness;
let dir: string;
let editor: Client;

const git = (...args: string[]) =>
  execFileSync('git', ['--git-dir', h.gitdir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim();
const PAGES = 482;
const BAD: Record<string, string> = {
  'bad/latin1.md': 'the file is not UTF-8 text',
  'bad/bell.md': 'The document has',
  'bad/huge.md': 'the file is ',
  'bad/unknown-type.md': 'unknown type "epic"',
  'bad/orphan.md': 'missing parent "nowhere.md"',
  'bad/no-parent.md': 'missing parent: a feature names its capability',
  'bad/code-frontmatter.md': 'frontmatter in js is refused',
  'bad/wrong-parent.md': 'is not a feature',
};

async function put(relative: string, content: string | Buffer) {
  await mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
  await writeFile(path.join(dir, relative), content);
}

async function specbaseImport(persona: Persona, ...extra: string[]) {
  const args = [
    'import',
    '--org',
    h.orgId,
    '--user',
    h.users[persona].user.email,
    dir,
    '--json',
    '--data-dir',
    h.dataDir,
    ...extra,
  ];
  try {
    const { stdout } = await runCli(args, { ...process.env, SPECBASE_LOG_LEVEL: 'silent', SPECBASE_FSYNC: 'off' });
    return { code: 0, out: JSON.parse(stdout) };
  } catch (error) {
    const e = error as { code: number; stderr: string };
    return { code: e.code, out: JSON.parse(e.stderr) };
  }
}

beforeAll(async () => {
  h = await startHarness();
  editor = await connect(h, 'editor');
  dir = await mkdtemp(path.join(os.tmpdir(), 'specbase-import-'));
  for (let i = 0; i < PAGES; i++) {
    const where = i % 3 === 0 ? 'guides' : i % 3 === 1 ? 'guides/setup' : 'decisions';
    const body =
      i % 2 === 0 ? `# Note ${i}\n\nText of note ${i}.\n` : `---\ntitle: Titled note ${i}\n---\nText of note ${i}.\n`;
    await put(`${where}/note-${String(i).padStart(3, '0')}.md`, body);
  }
  await put('top.md', '# Top level page\n\nAt the root.\n');
  await put('product/loyalty.md', `---\ntype: capability\nparent: ${h.productId}\n---\n# Loyalty\n\nRewards.\n`);
  await put('product/points.md', '---\ntype: feature\nparent: loyalty.md\n---\n# Points\n\nEarn points.\n');
  await put(
    'product/points-expire.md',
    '---\ntype: requirement\nparent: points.md\n---\n# Points expire\n\n**Requirement type:** BUSINESS_RULE (policies)\n\nAfter a year.\n',
  );
  await put(
    'product/points-expire-ac.md',
    '---\ntype: acceptance_criterion\nparent: product/points-expire.md\n---\n# Expired points vanish\n\nGiven a point a year old, when the day ends, then it is gone.\n',
  );
  await put('product/tiers.md', '---\ntype: feature\nparent: loyalty.md\ntitle: Tiers\n---\nGold and silver.\n');
  await put('product/tier-rules.md', '---\ntype: requirement\nparent: tiers.md\n---\n# Tier rules\n\nSpend decides.\n');
  await put('product/members.md', `---\ntype: user_type\nparent: ${h.productId}\n---\n# Loyalty member\n`);
  await put('product/ledger.md', `---\ntype: core_entity\nparent: ${h.productId}\n---\n# Points ledger\n`);
  await put('product/redeem.md', '---\ntype: feature\nparent: ./loyalty.md\n---\n# Redeem\n');
  await put('notes.txt', 'not markdown: left alone');
  await put('bad/latin1.md', Buffer.from([0x23, 0x20, 0x43, 0x61, 0x66, 0xe9, 0x0a]));
  await put('bad/bell.md', '# Bell\n\nring \u0007 here\n');
  await put('bad/huge.md', `# Huge\n\n${'x'.repeat(1024 * 1024 + 10)}\n`);
  await put('bad/unknown-type.md', '---\ntype: epic\nparent: x\n---\n# Epic\n');
  await put('bad/orphan.md', '---\ntype: feature\nparent: nowhere.md\n---\n# Orphan\n');
  await put('bad/no-parent.md', '---\ntype: feature\n---\n# No parent\n');
  await put('bad/code-frontmatter.md', '---js\n{ title: "x" }\n---\n# Code\n');
  await put('bad/wrong-parent.md', '---\ntype: requirement\nparent: ../product/loyalty.md\n---\n# Wrong parent\n');
});
afterAll(async () => {
  await editor?.close();
  await h?.close();
  await rm(dir, { recursive: true, force: true });
});

const TOTAL = PAGES + 1 + 9 + Object.keys(BAD).length;
const GOOD = TOTAL - Object.keys(BAD).length;

describe('specbase import', () => {
  it('has 500 files to take', () => {
    expect(TOTAL).toBe(500);
  });

  it('plans with --dry-run and writes nothing', async () => {
    const head = git('rev-parse', 'main');
    const { code, out } = await specbaseImport('editor', '--dry-run');
    expect(code).toBe(0);
    expect(out.dryRun).toBe(true);
    expect(out.imported).toHaveLength(GOOD);
    expect(out.refused.map((r: { path: string }) => r.path).sort()).toEqual(Object.keys(BAD).sort());
    expect(git('rev-parse', 'main')).toBe(head);
  });

  it('refuses everything to a viewer and writes nothing', async () => {
    const head = git('rev-parse', 'main');
    const { out } = await specbaseImport('viewer');
    expect(out.imported).toHaveLength(0);
    expect(out.refused.filter((r: { reason: string }) => /^permission denied/.test(r.reason)).length).toBeGreaterThan(
      400,
    );
    expect(git('rev-parse', 'main')).toBe(head);
    expect((await specbaseImport('outsider')).out.message).toBe('artifact not found');
  });

  it('imports one commit per artifact with the trailer, lists bad files with reasons, and writes nothing of them', async () => {
    const before = git('rev-parse', 'main');
    const { code, out } = await specbaseImport('editor');
    expect(code).toBe(0);
    expect(out.imported).toHaveLength(GOOD);
    for (const [file, reason] of Object.entries(BAD)) {
      expect(out.refused.find((r: { path: string }) => r.path === file)?.reason, file).toContain(reason);
    }
    const trailers = git('log', '--format=%(trailers:key=Specbase-Import,valueonly)', `${before}..main`)
      .split('\n')
      .filter(Boolean);
    expect(trailers).toHaveLength(GOOD);
    expect(new Set(trailers).size).toBe(GOOD);
    for (const file of Object.keys(BAD)) expect(trailers).not.toContain(file);
    expect(
      git('log', '--format=%an', `${before}..main`)
        .split('\n')
        .every((name) => name === 'Editor Tester'),
    ).toBe(true);
    git('fsck', '--strict');

    const folders = (await call(editor, 'specbase_list_folders', {})).data.folders as {
      id: string;
      name: string;
      parentFolderId: string | null;
    }[];
    const guides = folders.find((f) => f.name === 'guides' && f.parentFolderId === null)!;
    const setup = folders.find((f) => f.name === 'setup')!;
    expect(setup.parentFolderId).toBe(guides.id);
    expect(((await call(editor, 'specbase_list_pages', { folderId: setup.id })).data.items as unknown[]).length).toBe(
      Array.from({ length: PAGES }, (_, i) => i).filter((i) => i % 3 === 1).length,
    );
    const titled = out.imported.find((i: { path: string }) => i.path === 'decisions/note-005.md');
    expect(titled.title).toBe('Titled note 5');

    const capability = out.imported.find((i: { path: string }) => i.path === 'product/loyalty.md');
    const features = (await call(editor, 'specbase_list_features', { capabilityId: capability.id })).data.items as {
      title: string;
    }[];
    expect(features.map((f) => f.title).sort()).toEqual(['Points', 'Redeem', 'Tiers']);
    const requirement = out.imported.find((i: { path: string }) => i.path === 'product/points-expire.md');
    const read = await call(editor, 'specbase_read_requirement', { requirementId: requirement.id, mode: 'full' });
    expect(read.data.requirementType).toBe('BUSINESS_RULE');
    const criteria = (await call(editor, 'specbase_list_acceptance_criteria', { requirementId: requirement.id })).data
      .items as unknown[];
    expect(criteria).toHaveLength(1);

    // The web application shows the folder tree the directories made, and where a page came from.
    const browser = await launchBrowser();
    try {
      const { page } = await signIn(browser, h, 'editor', `/o/${h.orgId}/folders/${setup.id}`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('setup');
      expect(await page.locator('main').innerText()).toContain('Note 4');
      await page.goto(`${h.baseUrl}/o/${h.orgId}/a/${requirement.id}/history`);
      expect(await page.locator('ol.timeline li .subject').allInnerTexts()).toEqual([
        'Create requirement: Points expire',
      ]);
    } finally {
      await browser.close();
    }
  });

  it('skips on a re-run what was imported, and takes only new files', async () => {
    await put('guides/late.md', '# Late page\n');
    const before = git('rev-parse', 'main');
    const { out } = await specbaseImport('editor');
    expect(out.skipped).toHaveLength(GOOD);
    expect(out.imported.map((i: { path: string }) => i.path)).toEqual(['guides/late.md']);
    expect(git('rev-list', '--count', `${before}..main`)).toBe('1');
    git('fsck', '--strict');
  });
});
