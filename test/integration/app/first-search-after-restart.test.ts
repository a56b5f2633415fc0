import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_USER } from '../../../src/demo/seed.js';
import { runCli } from '../../support/cli.js';
import { copyDataDir, seededDataDir, type SeedManifest } from '../../support/seed.js';
import { ensureBuilt, loopbackServer, startMain, type Started } from '../startup/process.js';
import { launchBrowser } from '../web/support.js';

/**
 * The first search after a restart does not wait: the real server (`node dist/main.js`) over an
 * organization of 1,000 artifacts with saved state (its catalog and search index, written when
 * the previous run stopped) answers the first web search page and the first MCP search within
 * 300 ms of being asked, each the first request of its kind after a restart.
 */
const ARTIFACTS = 1_000;
const FIRST_SEARCH_MS = 300;
const PASSWORD = 'restart-pass-1';

let dataDir: string;
let manifest: SeedManifest;
let baseUrl: string;
let env: Record<string, string>;
let server: Started | undefined;
let browser: Browser;
let session: BrowserContext;

async function start(): Promise<void> {
  server = startMain(env);
  await server.waitFor('Specbase is running at', 'stdout', 120_000);
}

async function stop(): Promise<void> {
  if (!server || server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  await server.exited;
}

async function mcpSearch(query: string): Promise<{ ms: number; results: unknown[] }> {
  const client = new Client({ name: 'restart-test', version: '1.0.0' });
  const headers = { Authorization: `Bearer ${manifest.token}`, 'X-Organization-Id': manifest.orgId };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/api/mcp/mcp`), { requestInit: { headers } }),
  );
  try {
    const start = performance.now();
    const result = await client.callTool({ name: 'specbase_search', arguments: { query } });
    const ms = performance.now() - start;
    return { ms, results: (result.structuredContent as { results: unknown[] }).results };
  } finally {
    await client.close();
  }
}

async function webSearch(query: string): Promise<{ ms: number; html: string }> {
  const start = performance.now();
  const response = await session.request.get(`${baseUrl}/o/${manifest.orgId}/search?q=${encodeURIComponent(query)}`);
  const ms = performance.now() - start;
  expect(response.status()).toBe(200);
  return { ms, html: await response.text() };
}

beforeAll(async () => {
  await ensureBuilt();
  const seeded = await seededDataDir(ARTIFACTS);
  manifest = seeded.manifest;
  dataDir = await mkdtemp(path.join(tmpdir(), 'specbase-first-search-'));
  copyDataDir(seeded.dir, dataDir);
  await runCli(
    [
      'user',
      'add',
      '--email',
      DEMO_USER.email,
      '--name',
      DEMO_USER.name,
      '--password',
      PASSWORD,
      '--data-dir',
      dataDir,
    ],
    { ...process.env, SPECBASE_LOG_LEVEL: 'silent' },
  );
  ({ baseUrl, env } = await loopbackServer(dataDir));
  await start();
  browser = await launchBrowser();
  session = await browser.newContext();
  const page = await session.newPage();
  await page.goto(`${baseUrl}/o/${manifest.orgId}`);
  await page.getByLabel('Email').fill(DEMO_USER.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === `/o/${manifest.orgId}`);
  await page.close();
  // The first run opens the organization from Git and builds its index; stopping saves both.
  expect((await mcpSearch('checkout')).results.length).toBeGreaterThan(0);
  await stop();
}, 600_000);

afterAll(async () => {
  await session?.close();
  await browser?.close();
  await stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it(`answers the first web search after a restart within ${FIRST_SEARCH_MS} ms`, async () => {
  await start();
  try {
    const first = await webSearch('checkout payment');
    expect(first.html).toContain('/a/');
    console.info(`first web search after a restart: ${Math.round(first.ms)} ms`);
    expect(first.ms).toBeLessThan(FIRST_SEARCH_MS);
  } finally {
    await stop();
  }
}, 300_000);

it(`answers the first MCP search after a restart within ${FIRST_SEARCH_MS} ms`, async () => {
  await start();
  try {
    const first = await mcpSearch('checkout payment');
    expect(first.results.length).toBeGreaterThan(0);
    console.info(`first MCP search after a restart: ${Math.round(first.ms)} ms`);
    expect(first.ms).toBeLessThan(FIRST_SEARCH_MS);
  } finally {
    await stop();
  }
}, 300_000);
