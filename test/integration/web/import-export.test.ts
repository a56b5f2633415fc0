import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/domain/index.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { launchBrowser, screenshot, signIn } from './support.js';

/** Import in the browser (upload, dry run, progress, result) and export as a zip download. */
let h: Harness;
let browser: Browser;
let work: string;

const DOCS: Record<string, string> = {
  'handbook/intro.md': '# Team handbook\n\nStart with [the process](process/release.md#steps) and [[Glossary]].\n',
  'handbook/process/release.md':
    '# Release process\n\n## Steps\n\nBack to [the intro](../intro.md). See ![chart](chart.png).\n',
  'handbook/glossary.md':
    '---\ntitle: Glossary\naliases: [Terms]\nowner: ana\n---\nWords we use. Not here: [old](../legacy/old.md).\n',
  'handbook/bad.md': '---\ntype: feature\n---\n# No parent\n',
};

beforeAll(async () => {
  h = await startHarness();
  browser = await launchBrowser();
  work = await mkdtemp(path.join(os.tmpdir(), 'specbase-web-import-'));
  for (const [file, text] of Object.entries(DOCS)) {
    await mkdir(path.dirname(path.join(work, file)), { recursive: true });
    await writeFile(path.join(work, file), text);
  }
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
  await rm(work, { recursive: true, force: true });
});

describe('import and export in the web application', () => {
  it('uploads a folder, shows the dry run, writes nothing until asked, then imports with the same rules as the CLI', async () => {
    const { page, context } = await signIn(browser, h, 'editor', `/o/${h.orgId}/import`);
    try {
      await screenshot(page, 'import-form');
      const before = await h.services.store.importedPaths(h.orgId);
      await page.locator('#import-folder').setInputFiles(path.join(work, 'handbook'));
      await page.getByRole('button', { name: 'Check the files' }).click();
      await page.getByRole('heading', { name: 'Check the import' }).waitFor();
      const main = await page.locator('main').innerText();
      expect(main).toContain('3 files to import');
      expect(main).toContain('bad.md: missing parent');
      expect(main).toContain('chart.png (asset)');
      expect(main).toContain('../legacy/old.md (outside the import)');
      expect(main).toContain('glossary.md: owner');
      await screenshot(page, 'import-check');
      expect((await h.services.store.importedPaths(h.orgId)).size).toBe(before.size);

      await page.getByRole('button', { name: 'Import 3 files' }).click();
      await page.getByRole('heading', { name: 'Import done' }).waitFor({ timeout: 60_000 });
      expect(await page.getByRole('status').innerText()).toContain('3 imported, 1 refused');
      await screenshot(page, 'import-done');
      const imported = await h.services.store.importedPaths(h.orgId);
      expect(imported.has('bad.md')).toBe(false);
      const actor: Actor = {
        principal: (await h.services.control.members.principal(h.orgId, h.users.editor.user.id))!,
      };
      const intro = await h.services.specs.read(actor, 'page', imported.get('intro.md')!, 'full');
      expect(intro.content).toContain(`/o/${h.orgId}/a/${imported.get('process/release.md')}#steps)`);
      expect(intro.links?.map((l) => l.title).sort()).toEqual(['Glossary', 'Release process']);
      const audit = await h.services.control.audit.page({ orgId: h.orgId, action: 'web.import', limit: 5 });
      expect(JSON.stringify(audit)).toContain('imported 3, skipped 0, refused 1');
    } finally {
      await context.close();
    }
  });

  it('answers an upload over the limits with a 413 page, writing nothing', async () => {
    const { context } = await signIn(browser, h, 'editor', `/o/${h.orgId}/import`);
    try {
      const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
      // The browser's session signs these requests in (else the upload would meet a redirect).
      const signedIn = await fetch(`${h.baseUrl}/o/${h.orgId}/import`, { headers: { cookie }, redirect: 'manual' });
      expect(signedIn.status).toBe(200);
      const form = new FormData();
      for (let i = 0; i <= h.services.config.limits.maxImportFiles; i++)
        form.append('files', new Blob(['# x\n']), `many/p${i}.md`);
      const answer = await fetch(`${h.baseUrl}/o/${h.orgId}/import`, {
        method: 'POST',
        body: form,
        headers: { cookie, origin: h.baseUrl },
      });
      expect(answer.status).toBe(413);
      expect(await answer.text()).toContain('Nothing was written');
    } finally {
      await context.close();
    }
  });

  it('imports a zip archive and downloads an artifact and everything as zip archives with relative links', async () => {
    const zip = path.join(work, 'notes.zip');
    await writeFile(
      zip,
      zipSync({
        'notes/a.md': strToU8('# Note A\n\nSee [B](b.md).\n'),
        'notes/b.md': strToU8('# Note B\n\nBack to [[Note A]].\n'),
      }),
    );
    const { page, context } = await signIn(browser, h, 'editor', `/o/${h.orgId}/import`);
    try {
      await page.locator('#import-zip').setInputFiles(zip);
      await page.getByRole('button', { name: 'Check the files' }).click();
      await page.getByRole('button', { name: 'Import 2 files' }).click();
      await page.getByRole('heading', { name: 'Import done' }).waitFor({ timeout: 60_000 });
      await page.getByRole('link', { name: 'Note A' }).click();
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Export .zip' }).click();
      const file = path.join(work, 'note-a.zip');
      await (await download).saveAs(file);
      const files = unzipSync(new Uint8Array(await readFile(file)));
      expect(Object.keys(files)).toEqual(['note-a.md']);

      await page.goto(`${h.baseUrl}/o/${h.orgId}/import`);
      const everything = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download everything as .zip' }).click();
      const all = path.join(work, 'all.zip');
      await (await everything).saveAs(all);
      const entries = unzipSync(new Uint8Array(await readFile(all)));
      const a = new TextDecoder().decode(entries['notes/note-a.md']);
      expect(a).toMatch(/^---\nid: [0-9a-f-]{36}\ntype: page\ntitle: "Note A"\n---\n/);
      expect(a).toContain('See [B](note-b.md).');
      expect(Object.keys(entries).length).toBeGreaterThan(20);
    } finally {
      await context.close();
    }
  });
});
