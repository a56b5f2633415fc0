import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { floodDisk } from '../../support/flood-disk.js';
import { startBareLoop, type BareLoopSeen } from '../../support/bare-loop.js';
import { watchLoop } from '../../support/watch-loop.js';
import { fastImport } from '../../support/seed.js';
import { organizationArtifacts } from '../../support/org-shape.js';
import type { Actor } from '../../../src/domain/index.js';
import { startHarness, type Harness, type Persona } from '../../support/harness.js';
import { call, callError, connect } from '../mcp/clients.js';
import { launchBrowser, signIn } from '../web/support.js';

/**
 * The server's event loop (this process runs it) while the work that grows with document and
 * repository size happens: a 1 MiB document rewritten completely, its change page opened, and
 * the first search of an organization of 10,000 artifacts; patches of thousands of hunks, and
 * hunks whose lines occur everywhere in a 1 MiB document; and while another process floods
 * the disk that the control plane's database is on, sign-ins and tool calls that write to it.
 * No single stall may pass 100 ms, and /healthz keeps answering throughout.
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
      if (response instanceof Error || response.status !== 200)
        failures.push(String(response instanceof Error ? response.message : response.status));
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
  const first = await h.services.store.update(
    h.orgId,
    pageId,
    { verb: 'edit', body: document('alpha', 1_000_000) },
    { author: owner },
  );
  await h.services.store.update(
    h.orgId,
    pageId,
    { verb: 'edit', body: document('beta', 1_000_000) },
    { author: owner },
  );
  const signedIn = await signIn(browser, h, 'owner');
  const largeClient = new Client({ name: 'event-loop-test', version: '1.0.0' });
  await largeClient.connect(
    new StreamableHTTPClientTransport(new URL('/api/mcp/mcp', h.baseUrl), {
      requestInit: { headers: { Authorization: `Bearer ${h.users.owner.token}`, 'X-Organization-Id': largeOrgId } },
    }),
  );
  await client.close();

  const { delay, stalls, step } = stallSteps();
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
      const search = await largeClient.callTool(
        { name: 'specbase_search', arguments: { query: 'payment retry' } },
        undefined,
        { timeout: 120_000 },
      );
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
  expect(
    longest,
    `longest stall per step (ms): ${JSON.stringify(stalls)}; slowest /healthz ${Math.round(slowestMs)} ms`,
  ).toBeLessThanOrEqual(STALL_LIMIT_MS);
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
    return `@@\n${lines
      .slice(0, -1)
      .map((line) => ` ${line}`)
      .join('\n')}\n-${lines.at(-1)}\n+${lines.at(-1)}${lines.at(-1)}\n`;
  }).join('');
  expect(Buffer.byteLength(coinHunks)).toBeLessThanOrEqual(256 * 1024);

  const { delay, stalls, step } = stallSteps();
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
  expect(
    longest,
    `longest stall per step (ms): ${JSON.stringify(stalls)}; slowest /healthz ${Math.round(slowestMs)} ms`,
  ).toBeLessThanOrEqual(STALL_LIMIT_MS);
}, 120_000);

/** The longest event-loop stall of each named step, in milliseconds. */
function stallSteps() {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const stalls: Record<string, number> = {};
  const step = async (name: string, work: () => Promise<void>) => {
    delay.reset();
    await work();
    stalls[name] = Math.round(delay.max / 1e6);
  };
  return { delay, stalls, step };
}

const count = async (table: string): Promise<number> =>
  (await h.services.control.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))!.n;

const PERSONAS = ['owner', 'editor', 'viewer', 'partial'] as const;

/** Each caller's pause between tool calls, which keeps it under the limit of 600 a minute. */
const TOOL_CALL_PAUSE_MS = 120;
/** Each caller's tool calls before the flood, with no pause: a tenth of the limit of 600 a minute. */
const WARM_UP_TOOL_CALLS = 60;

/**
 * Another process flooding the disk makes a flush (a SQLite checkpoint's fsync) wait hundreds of
 * milliseconds; the event loop must never be the one waiting. The flood also takes CPU, as do
 * the browser and whatever else runs on the machine, so the stall that counts is the part not
 * spent waiting for a CPU (see watchLoop). Even that part is not all ours: the loop also waits
 * for locks it shares with the process's other threads (the thread pool's queue, a worker's
 * message port, the garbage collector's helpers), and a thread holding one may itself be waiting
 * for a CPU or the disk. A bare Node process beside the server, writing small files to the same
 * disk, measures that share of the machine's in the same run (see startBareLoop); the server may
 * be held at most 100 ms longer than it.
 */
it('while another process floods the disk, sign-ins, page loads and tool calls (sessions and audit rows written) never stall the loop over 100 ms', async () => {
  const callers = await Promise.all(PERSONAS.map((persona) => connect(h, persona)));
  const pagePath = `/o/${h.orgId}/a/${h.productId}`;
  const visit = async (persona: Persona) => {
    const signedIn = await signIn(browser, h, persona);
    try {
      const page = await signedIn.page.goto(h.baseUrl + pagePath);
      expect(page?.status()).toBe(200);
    } finally {
      await signedIn.context.close();
    }
  };
  let toolCalls = 0;
  const toolCall = async (client: Client, i: number) => {
    if (i % 3 === 0) await call(client, 'specbase_read_product');
    else if (i % 3 === 1) await call(client, 'specbase_search', { query: 'checkout payment' });
    else await call(client, 'specbase_list_capabilities', { productId: h.productId });
    toolCalls++;
  };
  // Before the flood, until first-use costs (compiling, caches) are paid: each persona's visit
  // once, and each caller's tool calls often enough that V8 has optimized their code. Compiled
  // later, during the flood, each optimization is queued for V8's helper threads, and queueing
  // it waited for a helper the flood kept off the CPUs: 218 ms held in one run (perf's
  // sched_switch: the loop in node::TaskQueue::Push from QueueForOptimization), the machine's
  // doing, not the disk's.
  for (const persona of PERSONAS) await visit(persona);
  await Promise.all(
    callers.map(async (client) => {
      for (let i = 0; i < WARM_UP_TOOL_CALLS; i++) await toolCall(client, i);
    }),
  );
  await h.services.control.audit.drain();
  // The connection that writes (a transaction's statements run on it) checkpoints every 40 pages
  // instead of every 1,000, so that the fsyncs of a checkpoint, which wait behind the flood, come
  // several times while it lasts rather than once in a while.
  await h.services.control.db.transaction((tx) => tx.get('PRAGMA wal_autocheckpoint = 40'));
  const sessionsBefore = await count('auth_sessions');
  const auditBefore = await count('audit_log');
  toolCalls = 0;

  const flood = floodDisk(path.join(h.dataDir, 'disk-flood'));
  const bare = startBareLoop(h.dataDir);
  // Two sign-ins of each persona: the flood's checkpoints (every 40 pages, above) come several
  // times within them; a third round only made this test, which runs alone, 8 s longer.
  const personas: Persona[] = Array.from({ length: 2 }, () => PERSONAS).flat();
  let pressure: Awaited<ReturnType<typeof flood.stop>>;
  const health = pollHealth(h.baseUrl);
  const loop = watchLoop();
  let stalls: ReturnType<typeof loop.stop>;
  let machine: BareLoopSeen;
  try {
    let signingIn = true;
    const web = (async () => {
      for (const persona of personas) await visit(persona);
    })().finally(() => (signingIn = false));
    const mcp = callers.map(async (client) => {
      for (let i = 0; signingIn; i++) {
        await toolCall(client, i);
        await new Promise((resolve) => setTimeout(resolve, TOOL_CALL_PAUSE_MS));
      }
    });
    await Promise.all([web, ...mcp]);
    await h.services.control.audit.drain();
  } finally {
    stalls = loop.stop();
    machine = await bare.stop();
    pressure = await flood.stop();
    await Promise.all(callers.map((client) => client.close()));
  }
  const { slowestMs, answered, failures } = await health.stop();
  expect(failures).toEqual([]);
  expect(answered).toBeGreaterThan(0);
  expect(await count('auth_sessions')).toBe(sessionsBefore + personas.length);
  // Each tool call and each sign-in is an audit row.
  expect(await count('audit_log')).toBe(auditBefore + toolCalls + personas.length);
  const held = stalls.cpuWaitKnown
    ? `of it not waiting for a CPU ${stalls.longestHeld.heldMs} ms (on a CPU ${stalls.longestHeld.onCpuMs} ms, off it ${stalls.longestHeld.offCpuMs} ms)`
    : 'the wait for a CPU unknown here';
  const seen = `longest stall ${stalls.longestStallMs} ms, ${held}; a bare Node process beside it: longest stall ${machine.longestStallMs} ms, not waiting for a CPU ${machine.longestHeld.heldMs} ms; ${personas.length} sign-ins, ${toolCalls} tool calls; the disk: ${pressure.rounds} rounds of dd, slowest 4 KiB fsync ${pressure.slowestFsyncMs} ms; slowest /healthz ${Math.round(slowestMs)} ms`;
  console.info(seen);
  expect(stalls.longestHeld.heldMs, seen).toBeLessThanOrEqual(STALL_LIMIT_MS + machine.longestHeld.heldMs);
});
