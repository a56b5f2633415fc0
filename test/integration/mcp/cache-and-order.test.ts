import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCatalog, TOOLS_LIST_BUDGET_BYTES } from '../../../src/tools/index.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { connect } from './clients.js';
import { connectModern, modernRaw } from './modern-clients.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

it('tools/list carries the cache hints on the 2026-07-28 era, stays under 25 KB, and keeps the table order', async () => {
  const answer = await modernRaw(h, 'tools/list');
  expect(answer.status).toBe(200);
  expect(answer.json.result.ttlMs).toBe(600_000);
  expect(answer.json.result.cacheScope).toBe('private');
  expect(answer.bytes).toBeLessThan(TOOLS_LIST_BUDGET_BYTES);
  const names = (answer.json.result.tools as { name: string }[]).map((tool) => tool.name);
  expect(names).toEqual(buildCatalog().listed.map((tool) => tool.name));
  expect((await modernRaw(h, 'tools/list')).json.result.tools).toEqual(answer.json.result.tools);
});

it('server/discover is cacheable by anyone', async () => {
  const answer = await modernRaw(h, 'server/discover');
  expect(answer.json.result).toMatchObject({ ttlMs: 600_000, cacheScope: 'public' });
  expect(answer.json.result.supportedVersions).toContain('2026-07-28');
});

it('both eras list the same tools in the same order, and the 2025 era has no cache fields', async () => {
  const modern = await connectModern(h, 'owner');
  const legacy = await connect(h, 'owner');
  try {
    const [modernTools, legacyTools] = await Promise.all([modern.listTools(), legacy.listTools()]);
    expect(modernTools.tools.map((tool) => tool.name)).toEqual(legacyTools.tools.map((tool) => tool.name));
    expect(legacyTools).not.toHaveProperty('ttlMs');
    expect(legacyTools).not.toHaveProperty('cacheScope');
    expect(JSON.stringify(legacyTools.tools).length).toBeLessThan(TOOLS_LIST_BUDGET_BYTES);
  } finally {
    await Promise.all([modern.close(), legacy.close()]);
  }
});
