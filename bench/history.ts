/**
 * First read on a long history: an organization whose every artifact was created by its own
 * commit (100,000 commits), packed as a clone or `git gc` leaves it, opened by a fresh process
 * without saved state. The read is answered from Git while the catalog builds (read-direct.ts),
 * which walks the file's history back to the commit that added it; the artifact read is one of
 * the first created, the longest walk. Baseline: the same first read without a commit-graph.
 * Measured: with the changed-path filters the store has git write once a large organization is
 * open (commit-graph.ts), so from the second start on. Target (issue 10): first read within 1 s.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { authHeaders, readCalls } from './mcp.js';
import { eachSize, startSpecbase, type LoadGenerator } from './support/processes.js';
import { copyDataDir, SCRATCH, seededDataDir, type SeedManifest } from './support/seed.js';
import { benchSizes, fmt, median, QUICK, ratioLine } from './support/stats.js';

const SIZES = benchSizes([100_000], [10_000]);
const ROUNDS = QUICK ? 1 : 2;

async function firstReadMs(dataDir: string, m: SeedManifest, load: LoadGenerator): Promise<number> {
  const server = await startSpecbase(dataDir);
  try {
    const { ms, errors } = await load.first(server.mcpUrl, authHeaders(m), [readCalls(m)[0]!]);
    if (errors[0]) throw new Error(`first read failed: ${errors[0]}`);
    return ms[0]!;
  } finally {
    await server.stop();
  }
}

async function benchSize(total: number, load: LoadGenerator): Promise<string[]> {
  const seed = await seededDataDir(total, { loose: false, commitEach: true });
  const m = seed.manifest;
  const dataDir = path.join(SCRATCH, 'run', `history-${total}`);
  const gitdir = path.join(dataDir, 'orgs', `${m.orgId}.git`);
  const without: number[] = [];
  const withGraph: number[] = [];
  const graphWriteMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const graph of round % 2 === 0 ? [false, true] : [true, false]) {
      copyDataDir(seed.dir, dataDir);
      fs.rmSync(path.join(gitdir, 'specbase'), { recursive: true, force: true });
      if (graph) {
        // What the store's background write leaves (commit-graph.ts), made here so it is not timed.
        const started = performance.now();
        execFileSync('git', ['--git-dir', gitdir, 'commit-graph', 'write', '--reachable', '--changed-paths', '--split']);
        graphWriteMs.push(performance.now() - started);
      }
      (graph ? withGraph : without).push(await firstReadMs(dataDir, m, load));
    }
  }
  return [
    `${total} artifacts, one commit each (packed), ${ROUNDS} round(s), no saved state; a commit-graph write takes ${fmt(median(graphWriteMs) / 1000, 1)} s in the background`,
    ratioLine('first read, commit-graph', 'ms', withGraph, without, 'first read <= 1 s'),
  ];
}

export const runHistoryBench = (): Promise<void> =>
  eachSize(
    'First read of an early artifact on a long history, with and without changed-path filters',
    SIZES,
    benchSize,
  );

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runHistoryBench();
}
