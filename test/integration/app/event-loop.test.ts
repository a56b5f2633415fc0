import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fastImport } from '../../support/seed.js';
import { organizationArtifacts } from '../../support/org-shape.js';
import type { Actor } from '../../../src/domain/index.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { call, callError, connect } from '../mcp/clients.js';
import { launchBrowser, signIn } from '../web/support.js';

/**
 * The server's event loop (this process runs it) while the work that grows with document and
 * repository size happens: a 1 MiB document rewritten completely, its change page opened, and
 * the first search of an organization of 10,000 artifacts; patches of thousands of hunks, and
 * hunks whose lines occur everywhere in a 1 MiB document. No single stall may pass 100 ms, and
 * /healthz keeps answering throughout.
 */
const LARGE_ORG_ARTIFACTS = 10_000;
const STALL_LIMIT_MS = 100;

let h: Harness;
let browser: Browser;
let largeOrgId: string;

beforeAll(async () => {
  h = await startHarness();
  browser = await launchBrowser();
  const { org, defaultWorkspace } = await h.services.control.orgs.create({ name: 'Large' });
  await h.services.control.members.setOwner(org.id, h.users.owner.user.id, true);
  fastImport(h.services.store.gitdir(org.id), organizationArtifacts(LARGE_ORG_ARTIFACTS, defaultWorkspace.id));
  largeOrgId = org.id;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

/** Lines of about 90 characters, different for each tag, so that two versions share no line. */
const document = (tag: string, bytes: number): string => {
  const lines = [`# Handbook`, ''];
  let size = 12;
  for (let i = 0; size < bytes; i++) {
    const line = `${tag} paragraph ${i}: ${'lorem ipsum dolor sit amet '.repeat(3)}`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
};

/** Polls /healthz until stopped; every answer must come, and how long the slowest took. */
function pollHealth(baseUrl: string) {
  let stopped = false;
  let slowestMs = 0;
  let answered = 0;
  const failures: string[] = [];
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/healthz`).catch((error: Error) => error);
      if (response instanceof Error || response.status !== 200) failures.push(String(response instanceof Error ? response.message : response.status));
      else answered++;
      slowestMs = Math.max(slowestMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { slowestMs, answered, failures };
    },
  };
}

it('rewriting a 1 MiB document, opening its change page and the first search of 10,000 artifacts never stall the loop over 100 ms', async () => {
  const client = await connect(h, 'owner');
  const owner = h.users.owner.user;
  const principal = (await h.services.control.members.principal(h.orgId, owner.id))!;
  const actor: Actor = { principal, client: 'event-loop-test' };
  const created = await call(client, 'specbase_create_page', { title: 'Handbook' });
  const pageId = created.data.id as string;
  const first = await h.services.store.update(h.orgId, pageId, { verb: 'edit', body: document('alpha', 1_000_000) }, { author: owner });
  await h.services.store.update(h.orgId, pageId, { verb: 'edit', body: document('beta', 1_000_000) }, { author: owner });
  const signedIn = await signIn(browser, h, 'owner');
  const largeClient = new Client({ name: 'event-loop-test', version: '1.0.0' });
  await largeClient.connect(
    new StreamableHTTPClientTransport(new URL('/api/mcp/mcp', h.baseUrl), {
      requestInit: { headers: { Authorization: `Bearer ${h.users.owner.token}`, 'X-Organization-Id': largeOrgId } },
    }),
  );
  await client.close();

  const delay = monitorEventLoopDelay({ resolution: 10 });
  const stalls: Record<string, number> = {};
  const step = async (name: string, work: () => Promise<void>) => {
    delay.reset();
    await work();
    stalls[name] = Math.round(delay.max / 1e6);
  };
  const health = pollHealth(h.baseUrl);
  delay.enable();
  try {
    let version = '';
    await step('rewrite', async () => {
      const restored = await h.services.specs.restore(actor, pageId, first.commit);
      expect(restored.removed).toBeGreaterThan(9_000);
      version = restored.version;
    });
    await step('change page', async () => {
      const changePage = await signedIn.context.request.get(`${h.baseUrl}/o/${h.orgId}/a/${pageId}/changes/${version}`);
      expect(changePage.status()).toBe(200);
    });
    await step('first search of 10,000', async () => {
      const search = await largeClient.callTool({ name: 'specbase_search', arguments: { query: 'payment retry' } }, undefined, { timeout: 120_000 });
      expect(search.isError).toBeFalsy();
    });
  } finally {
    delay.disable();
    await signedIn.context.close();
    await largeClient.close();
  }
  const { slowestMs, answered, failures } = await health.stop();
  expect(failures).toEqual([]);
  expect(answered).toBeGreaterThan(0);
  const longest = Math.max(...Object.values(stalls));
  expect(longest, `longest stall per step (ms): ${JSON.stringify(stalls)}; slowest /healthz ${Math.round(slowestMs)} ms`).toBeLessThanOrEqual(STALL_LIMIT_MS);
});

it('patches of thousands of hunks, on large documents and on lines that occur everywhere, never stall the loop over 100 ms', async () => {
  const client = await connect(h, 'owner');
  const owner = h.users.owner.user;
  const page = async (title: string, body: string): Promise<string> => {
    const id = (await call(client, 'specbase_create_page', { title })).data.id as string;
    await h.services.store.update(h.orgId, id, { verb: 'edit', body }, { author: owner });
    return id;
  };
  // 7,000 rows, and a patch of 7,000 one-line hunks, each changing its row: about 240 KiB.
  const rows = Array.from({ length: 7_000 }, (_, i) => `row ${i} text`);
  const rowsId = await page('Rows', `# Rows\n\n${rows.join('\n')}\n`);
  const manyHunks = rows.map((row) => `@@\n-${row}\n+${row}!\n`).join('');
  expect(Buffer.byteLength(manyHunks)).toBeLessThanOrEqual(256 * 1024);
  // The handbook of the test above (1 MiB), 1,000 of its lines changed by 1,000 hunks.
  const handbook = document('gamma', 1_000_000);
  const handbookId = await page('Handbook two', handbook);
  const thousandHunks = handbook
    .split('\n')
    .filter((line) => line.startsWith('gamma'))
    .filter((_, i) => i % 9 === 0)
    .slice(0, 1_000)
    .map((line) => `@@\n-${line}\n+${line}(edited)\n`)
    .join('');
  // 1 MiB of lines that are each "a" or "b", and 1,000 hunks of 80 such lines: every line of
  // every hunk occurs 250,000 times.
  let seed = 31;
  const coin = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648 < 0.5 ? 'a' : 'b');
  const coins = Array.from({ length: 500_000 }, coin);
  const coinsId = await page('Coins', `${coins.join('\n')}\n`);
  const coinHunks = Array.from({ length: 1_000 }, (_, h) => {
    const lines = coins.slice(h * 500, h * 500 + 80);
    return `@@\n${lines.slice(0, -1).map((line) => ` ${line}`).join('\n')}\n-${lines.at(-1)}\n+${lines.at(-1)}${lines.at(-1)}\n`;
  }).join('');
  expect(Buffer.byteLength(coinHunks)).toBeLessThanOrEqual(256 * 1024);

  const delay = monitorEventLoopDelay({ resolution: 10 });
  const stalls: Record<string, number> = {};
  const step = async (name: string, work: () => Promise<void>) => {
    delay.reset();
    await work();
    stalls[name] = Math.round(delay.max / 1e6);
  };
  const health = pollHealth(h.baseUrl);
  delay.enable();
  try {
    await step('7,000 one-line hunks', async () => {
      const message = await callError(client, 'specbase_edit_page', { pageId: rowsId, patch: manyHunks });
      expect(message).toMatch(/^The patch has 7000 hunks; one edit applies at most 1000\./);
    });
    await step('1,000 hunks on 1 MiB', async () => {
      const edit = await call(client, 'specbase_edit_page', { pageId: handbookId, patch: thousandHunks });
      expect(edit.data.added).toBeGreaterThanOrEqual(1_000);
    });
    await step('1,000 hunks of lines found everywhere', async () => {
      const message = await callError(client, 'specbase_edit_page', { pageId: coinsId, patch: coinHunks });
      expect(message).toMatch(/^Hunk \d+ (cannot be placed within the work one edit may take|matches \d+ places)/);
    });
  } finally {
    delay.disable();
    await client.close();
  }
  const { slowestMs, answered, failures } = await health.stop();
  expect(failures).toEqual([]);
  expect(answered).toBeGreaterThan(0);
  const longest = Math.max(...Object.values(stalls));
  expect(longest, `longest stall per step (ms): ${JSON.stringify(stalls)}; slowest /healthz ${Math.round(slowestMs)} ms`).toBeLessThanOrEqual(STALL_LIMIT_MS);
}, 120_000);
