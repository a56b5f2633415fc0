/**
 * Same-artifact storm (issue 9): N MCP clients in closed loops, each inserting a line under the
 * same heading of one acceptance criterion, against a raw isomorphic-git commit loop on a copy
 * of the same repository (its own process), rounds alternating. Then the event-loop delay inside
 * the server process (perf_hooks.monitorEventLoopDelay) under a mixed load of edits, reads and
 * searches. Edits refused (a conflict) are counted, not hidden; `git fsck --strict` at the end.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { copyDataDir, SCRATCH, seededDataDir, type SeedManifest } from '../test/support/seed.js';
import { authHeaders, readCalls, searchCalls } from './mcp.js';
import type { ToolCall } from './support/load-generator.js';
import { startLoadGenerator, startRawGitLoop, startSpecbase } from './support/processes.js';
import { benchSizes, fmt, median, QUICK, ratioLine, spread } from './support/stats.js';

const [SIZE] = benchSizes([10_000], [1_000]);
const WRITERS = QUICK ? 5 : 10;
const ROUNDS = QUICK ? 2 : 3;
const MEASURE_MS = QUICK ? 2_000 : 4_000;
const MIXED_MS = QUICK ? 3_000 : 8_000;

function insertUnderHeading(m: SeedManifest): ToolCall {
  const target = m.sample['acceptance_criterion']!;
  const heading = target.body.split('\n')[0]!;
  return {
    tool: 'specbase_edit_acceptance_criterion',
    args: { acceptanceCriterionId: target.id, patch: `@@\n ${heading}\n+- storm line\n` },
  };
}

export async function runStormBench(): Promise<void> {
  const seed = await seededDataDir(SIZE!);
  const m = seed.manifest;
  const dataDir = path.join(SCRATCH, 'run', `storm-${SIZE}`);
  const rawDir = path.join(SCRATCH, 'run', `storm-raw-${SIZE}`);
  copyDataDir(seed.dir, dataDir);
  copyDataDir(seed.dir, rawDir);
  const rawGitdir = path.join(rawDir, 'orgs', `${m.orgId}.git`);
  const [server, load, raw] = await Promise.all([startSpecbase(dataDir), startLoadGenerator(), startRawGitLoop()]);
  try {
    const edit = insertUnderHeading(m);
    await load.open('writers', server.mcpUrl, authHeaders(m), WRITERS);
    // Warm-up, and the search index built, so the mixed load measures steady state.
    for (const calls of [[edit], readCalls(m), searchCalls()]) await load.run('writers', calls, 0, 1);
    await raw.run(rawGitdir, m.sample['acceptance_criterion']!.path, 500);

    const storm: number[] = [];
    const refused: number[] = [];
    const baseline: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push(await raw.run(rawGitdir, m.sample['acceptance_criterion']!.path, MEASURE_MS));
      const stats = await load.run('writers', [edit], 0, MEASURE_MS);
      storm.push((stats.calls - stats.errors) / (MEASURE_MS / 1000));
      refused.push(stats.errors);
    }

    await server.loopStart();
    const mixed = await load.run(
      'writers',
      [edit, ...readCalls(m).slice(0, 2), ...searchCalls().slice(0, 2)],
      0,
      MIXED_MS,
    );
    const delay = await server.loopRead();
    await load.close();
    const gitdir = path.join(dataDir, 'orgs', `${m.orgId}.git`);
    execFileSync('git', ['--git-dir', gitdir, 'fsck', '--strict', '--no-dangling'], { stdio: 'pipe' });
    console.log(
      [
        `Same-artifact storm at ${SIZE} artifacts: ${WRITERS} MCP clients inserting under one heading, ${ROUNDS} rounds of ${MEASURE_MS / 1000} s, alternating with the raw loop`,
        ratioLine('committed edits/s vs raw iso-git', 'edits/s', storm, baseline),
        `  refused edits per round: ${refused.join(', ')} (target 0)`,
        `Mixed load (edits, reads, searches; ${WRITERS} clients, ${MIXED_MS / 1000} s): ${fmt(mixed.perSecond)} calls/s, ${mixed.errors} failed${mixed.firstError ? ` (first: ${mixed.firstError.slice(0, 80)})` : ''}`,
        `  event-loop delay in the server: p50 ${fmt(delay.p50Ms, 1)} ms  p99 ${fmt(delay.p99Ms, 1)} ms  max ${fmt(delay.maxMs, 1)} ms (no stall over 100 ms)`,
        `  git fsck --strict after the storm: clean (raw loop rounds ${spread(baseline)} commits/s, storm median ${fmt(median(storm))})`,
      ].join('\n'),
    );
  } finally {
    raw.stop();
    await Promise.all([server.stop(), load.stop()]);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runStormBench();
}
