import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { callTool, git, launchBrowser, mainFormCsrf, mcpClient, signIn, type SignedIn } from './support.js';

const REQUIREMENT = 'Typo-tolerant matching';

/**
 * The character rule of MCP patches (no control characters but tab, no lone surrogates) holds
 * on every other path that writes a body: the web editor, restoring a version. Titles refuse
 * bidirectional overrides and isolates on every path, the web's create forms included.
 */
describe('web: one character rule for every body and title', () => {
  let harness: Harness;
  let browser: Browser;
  let owner: SignedIn;
  let editorMcp: Client;
  let requirementId: string;
  let capabilityId: string;

  const head = () => git(harness.gitdir, 'rev-parse', 'main').trim();
  const artifactUrl = (id: string) => `${harness.baseUrl}/o/${harness.orgId}/a/${id}`;
  const rawBody = async (id: string) => (await owner.page.request.get(`${artifactUrl(id)}/raw`)).text();
  const csrf = async () => {
    const page = await owner.page.request.get(`${harness.baseUrl}/o/${harness.orgId}/connect`);
    return mainFormCsrf(await page.text());
  };

  beforeAll(async () => {
    harness = await startHarness();
    browser = await launchBrowser();
    editorMcp = await mcpClient(harness.baseUrl, harness.orgId, harness.users.editor.token, 'character-rule');
    const found = (await callTool(editorMcp, 'specbase_search', { query: REQUIREMENT })) as {
      results: { id: string; type: string }[];
    };
    requirementId = found.results.find((r) => r.type === 'requirement')!.id;
    const product = await callTool(editorMcp, 'specbase_read_product', {});
    const capabilities = (await callTool(editorMcp, 'specbase_list_capabilities', { productId: product.id })) as {
      items: { id: string }[];
    };
    capabilityId = capabilities.items[0]!.id;
    owner = await signIn(browser, harness, 'owner');
  });

  afterAll(async () => {
    await editorMcp?.close();
    await browser?.close();
    await harness?.close();
  });

  it('the editor refuses a save with an escape sequence, names the character and its line, and keeps the typed text', async () => {
    const { page } = owner;
    await page.goto(`${artifactUrl(requirementId)}/edit`);
    const original = await page.locator('#body').inputValue();
    const lines = original.split('\n');
    const typed = [lines[0], '\u001b[31mred alert\u001b[0m and a bell\u0007', ...lines.slice(1)].join('\n');
    await page.locator('#body').fill(typed);
    const before = head();
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/edit') && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Save changes' }).click(),
    ]);
    expect(response.status()).toBe(400);
    const notice = await page.locator('.notice.error').innerText();
    expect(notice).toContain('Nothing was written.');
    expect(notice).toContain('The document has a control character (U+001B ESC) at line 2, column 1.');
    expect(await page.locator('#body').inputValue()).toBe(typed);
    expect(head()).toBe(before);
    expect(await rawBody(requirementId)).toBe(original);
  });

  it('a form post of the editor with NUL is refused the same way, and nothing is committed', async () => {
    const original = await rawBody(requirementId);
    const before = head();
    const response = await owner.page.request.post(`${artifactUrl(requirementId)}/edit`, {
      form: { csrf: await csrf(), baseVersion: before, body: `${original}\nnull\u0000byte\n`, summary: '' },
      headers: { origin: harness.baseUrl },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(400);
    const lineOfNul = original.split('\n').length + 1;
    expect(await response.text()).toContain(
      `The document has a control character (U+0000 NUL) at line ${lineOfNul}, column 5.`,
    );
    expect(head()).toBe(before);
    expect(await rawBody(requirementId)).toBe(original);
  });

  it('restoring a version with a control character (written before the rule, by native git) is refused; other edits still work', async () => {
    const legacy = commitByHand(harness, requirementId, (body) => `${body}\nlegacy\u0007bell\n`);
    await harness.services.store.refresh(harness.orgId);
    expect(await rawBody(requirementId)).toContain('legacy\u0007bell');

    // A line the document already has is left alone: an edit elsewhere goes through, and so does removing it.
    const current = await rawBody(requirementId);
    await callTool(editorMcp, 'specbase_edit_requirement', {
      requirementId,
      patch: `@@\n ${current.split('\n')[0]}\n+\n+Edited elsewhere.\n`,
    });
    const withoutBell = (await rawBody(requirementId)).replace('legacy\u0007bell\n', '');
    const saved = await owner.page.request.post(`${artifactUrl(requirementId)}/edit`, {
      form: { csrf: await csrf(), baseVersion: head(), body: withoutBell, summary: '' },
      headers: { origin: harness.baseUrl },
      maxRedirects: 0,
    });
    expect(saved.status()).toBe(303);

    const before = head();
    const restore = await owner.page.request.post(`${artifactUrl(requirementId)}/restore`, {
      form: { csrf: await csrf(), commit: legacy },
      headers: { origin: harness.baseUrl },
      maxRedirects: 0,
    });
    expect(restore.status()).toBe(400);
    expect(await restore.text()).toMatch(
      /The document has a control character \(U\+0007 BEL\) at line \d+, column 7\./,
    );
    expect(head()).toBe(before);
    expect(await rawBody(requirementId)).not.toContain('\u0007');
  });

  it('the create forms refuse a title with a right-to-left override and show the form again', async () => {
    const before = head();
    const title = 'Invoice \u202etxt.exe';
    const child = await owner.page.request.post(`${artifactUrl(capabilityId)}/new`, {
      form: { csrf: await csrf(), type: 'feature', title },
      headers: { origin: harness.baseUrl },
      maxRedirects: 0,
    });
    expect(child.status()).toBe(400);
    expect(await child.text()).toContain(
      'the title has a bidirectional formatting character (U+202E RIGHT-TO-LEFT OVERRIDE) at character 9',
    );
    const page = await owner.page.request.post(`${harness.baseUrl}/o/${harness.orgId}/pages`, {
      form: { csrf: await csrf(), title: `\u2067${title}` },
      headers: { origin: harness.baseUrl },
      maxRedirects: 0,
    });
    expect(page.status()).toBe(400);
    expect(await page.text()).toContain('(U+2067 RIGHT-TO-LEFT ISOLATE) at character 1');
    expect(head()).toBe(before);
  });
});

/**
 * A commit made with native git, as a document written before the character rule would be in
 * history: `change` rewrites the artifact's file (frontmatter and body) on top of main.
 */
function commitByHand(harness: Harness, id: string, change: (file: string) => string): string {
  const run = (args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}) =>
    execFileSync('git', ['--git-dir', harness.gitdir, ...args], { encoding: 'utf8', ...options }).trim();
  const file = run(['ls-tree', '-r', '--name-only', 'main'])
    .split('\n')
    .find((p) => p.includes(id.slice(0, 8)))!;
  const blob = run(['hash-object', '-w', '--stdin'], { input: change(run(['show', `main:${file}`]) + '\n') });
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'specbase-index-'));
  try {
    const env = { ...process.env, GIT_INDEX_FILE: path.join(scratch, 'index') };
    run(['read-tree', 'main'], { env });
    run(['update-index', '--cacheinfo', `100644,${blob},${file}`], { env });
    const tree = run(['write-tree'], { env });
    const parent = run(['rev-parse', 'main']);
    const message = `Edit requirement: ${REQUIREMENT}\n\nArtifact-Id: ${id}\nArtifact-Type: requirement\nClient: legacy\n`;
    const commit = run(
      ['-c', 'user.name=Legacy', '-c', 'user.email=legacy@example.com', 'commit-tree', tree, '-p', parent, '-F', '-'],
      { input: message },
    );
    run(['update-ref', 'refs/heads/main', commit, parent]);
    return commit;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
