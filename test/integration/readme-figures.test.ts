import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, loadConfig } from '../../src/config/index.js';
import { MAX_HUNKS } from '../../src/patch/apply-patch.js';
import { MAX_QUERY_CHARS } from '../../src/search/parse-query.js';
import { MAX_QUERY_TERMS } from '../../src/search/org-search-index.js';
import { POSTINGS_BUDGET } from '../../src/search/score-at-a-time.js';
import { TOOLS_LIST_BUDGET_BYTES } from '../../src/tools/index.js';
import { startHarness, type Harness } from '../support/harness.js';
import { connect } from './mcp/clients.js';
import { modernRaw } from './mcp/modern-clients.js';

/**
 * Every figure the README states about the code is read from the README and checked against the
 * code or the running service, so that a change to either that leaves the other behind fails here.
 * Figures that change with every edit of a description (bytes of tools/list) are not written.
 */
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The first group of `pattern` in the README, as a number ("1,000" counts as 1000). */
function stated(pattern: RegExp): number {
  const match = README.match(pattern);
  expect(match, `the README no longer says ${pattern}`).not.toBeNull();
  return Number(match![1]!.replaceAll(',', ''));
}

describe('the configuration table', () => {
  const rows = [...README.matchAll(/^\| `([A-Z_]+)` \| `([^`$]+)` \|/gm)].map(([, name, value]) => ({
    name: name!,
    value: value!,
  }));

  it('lists the settings', () => {
    expect(rows.map((row) => row.name)).toEqual(expect.arrayContaining(['PORT', 'SPECBASE_DATA_DIR', 'SPECBASE_DEMO']));
  });

  it.each(rows.map((row) => [row.name, row.value]))('%s defaults to what the README says (%s)', (name, value) => {
    expect(loadConfig({ [name]: value })).toEqual(loadConfig({}));
  });
});

it('the limits the README states are the defaults', () => {
  const limits = README.match(
    /a patch may be at most (\d+) KiB and ([\d,]+) hunks, and a document at most (\d+) MiB; titles at\s+most (\d+) characters/,
  );
  expect(limits, 'the README no longer states the edit limits').not.toBeNull();
  const [, patchKiB, hunks, documentMiB, titleChars] = limits!.map((group) => Number(group.replaceAll(',', '')));
  expect(patchKiB! * 1024).toBe(DEFAULT_LIMITS.maxPatchBytes);
  expect(hunks).toBe(MAX_HUNKS);
  expect(documentMiB! * 1024 * 1024).toBe(DEFAULT_LIMITS.maxDocumentBytes);
  expect(titleChars).toBe(DEFAULT_LIMITS.maxTitleChars);
});

it('the search limits the README states are the code', () => {
  expect(stated(/Past (\d+) distinct words the \d+ rarest are searched/)).toBe(MAX_QUERY_TERMS);
  expect(stated(/a query over ([\d,]+) characters is refused/)).toBe(MAX_QUERY_CHARS);
  expect(stated(/or ([\d,]+) postings are\s+read/)).toBe(POSTINGS_BUDGET);
});

describe('against the running service', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('a connection that asks for nothing gets the number of tools the README names, on both eras', async () => {
    const count = stated(/The (\d+) tools are `specbase_search`/);
    const client = await connect(h, 'owner');
    try {
      expect((await client.listTools()).tools).toHaveLength(count);
    } finally {
      await client.close();
    }
    expect((await modernRaw(h, 'tools/list')).json.result.tools).toHaveLength(count);
  });

  it('tools/list stays within the size the README states, on both eras, and the README gives no byte count that would drift', async () => {
    const budgetKB = stated(/`tools\/list` stays under (\d+) KB/);
    expect(budgetKB * 1024).toBe(TOOLS_LIST_BUDGET_BYTES);
    expect((await modernRaw(h, 'tools/list')).bytes).toBeLessThan(TOOLS_LIST_BUDGET_BYTES);
    const client = await connect(h, 'owner');
    try {
      expect(Buffer.byteLength(JSON.stringify(await client.listTools()))).toBeLessThan(TOOLS_LIST_BUDGET_BYTES);
    } finally {
      await client.close();
    }
    expect(README).not.toMatch(/\d{1,3},\d{3} bytes\b/);
  });
});
