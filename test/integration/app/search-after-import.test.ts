import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { call, connect } from '../mcp/clients.js';

/**
 * Commits of another process never stall search: `specbase import` (the real CLI, its own
 * process) writes 300 pages into the organization a running server serves; the server's next
 * search answers from the index it has, at once, and the pages are found once the background
 * catch-up has indexed them.
 */
const FILES = 300;
const FIRST_SEARCH_MS = 1_000;
const exec = promisify(execFile);

let h: Harness;
let dir: string;
let owner: Client;

beforeAll(async () => {
  h = await startHarness();
  owner = await connect(h, 'owner');
  dir = await mkdtemp(path.join(os.tmpdir(), 'specbase-search-after-import-'));
  for (let i = 0; i < FILES; i++) {
    const folder = path.join(dir, `section-${i % 10}`);
    await mkdir(folder, { recursive: true });
    const body = `# Imported note ${i}\n\nThe quokka ledger, entry ${i}: ${'shipping and returns of parcels. '.repeat(20)}\n`;
    await writeFile(path.join(folder, `note-${i}.md`), body);
  }
});

afterAll(async () => {
  await owner?.close();
  await h?.close();
  await rm(dir, { recursive: true, force: true });
});

const search = async (query: string) =>
  (await call(owner, 'specbase_search', { query, limit: 10 })).data.results as { title: string }[];

it(`answers the first search after a ${FILES}-file import by another process within ${FIRST_SEARCH_MS} ms, then finds the pages`, async () => {
  // The index is built and the organization open, as on a server in use.
  expect(await search('quokka')).toEqual([]);
  const { stdout } = await exec(
    process.execPath,
    [
      path.resolve('bin/specbase.js'),
      'import',
      '--org',
      h.orgId,
      '--user',
      h.users.owner.user.email,
      dir,
      '--json',
      '--data-dir',
      h.dataDir,
    ],
    { env: { ...process.env, SPECBASE_LOG_LEVEL: 'silent', SPECBASE_FSYNC: 'off' }, timeout: 240_000 },
  );
  expect((JSON.parse(stdout) as { imported: unknown[] }).imported).toHaveLength(FILES);

  const start = performance.now();
  await search('quokka ledger');
  const firstMs = performance.now() - start;
  console.info(`first search after a ${FILES}-file import: ${Math.round(firstMs)} ms`);
  expect(firstMs).toBeLessThan(FIRST_SEARCH_MS);

  // Indexed in the background, commit by commit: every page is found in the end.
  const deadline = Date.now() + 120_000;
  let found: { title: string }[] = [];
  while (Date.now() < deadline) {
    found = await search('Imported note 299');
    if (found[0]?.title === 'Imported note 299') break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(found[0]?.title).toBe('Imported note 299');
}, 400_000);
