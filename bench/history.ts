/**
 * First read on a long history: an organization whose every artifact was created by its own
 * commit (100,000 commits), packed as a clone or `git gc` leaves it, opened by a fresh process
 * without saved state. The read is answered from Git while the catalog builds (read-direct.ts),
 * which walks the file's history back to the commit that added it; the artifact read is one of
 * the first created, the longest walk. Baseline: the same first read without a commit-graph.
 * Measured: with the changed-path filters the store has git write once a large organization is
 * open (commit-graph.ts), so from the second start on. Target (issue 10): first read within 1 s.
 * Also the cost of that background write on every later open, against the first full write:
 * with no commit since the last write, and after a day's worth of edits.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { copyDataDir, SCRATCH, seededDataDir, type SeedManifest } from '../test/support/seed.js';
import { firstCallsMs, readCalls } from './mcp.js';
import { eachSize, type LoadGenerator } from './support/processes.js';
import { benchSizes, fmt, median, QUICK, ratioLine } from './support/stats.js';

const SIZES = benchSizes([100_000], [10_000]);
const ROUNDS = QUICK ? 1 : 2;
const NEW_COMMITS = 100;
const GRAPH_WRITE = ['commit-graph', 'write', '--reachable', '--changed-paths', '--split'];

const git = (gitdir: string, args: string[], env: NodeJS.ProcessEnv = process.env, input?: string): string =>
  execFileSync('git', ['--git-dir', gitdir, ...args], {
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    ...(input === undefined ? {} : { input }),
  }).trim();

/** The store's background write, timed. */
function graphWriteMs(gitdir: string): number {
  const started = performance.now();
  git(gitdir, GRAPH_WRITE);
  return performance.now() - started;
}

/** `count` commits on main, each appending a line to one of the first files, as edits would. */
function addEdits(gitdir: string, count: number): void {
  const env = {
    ...process.env,
    GIT_INDEX_FILE: path.join(gitdir, 'bench-index'),
    GIT_AUTHOR_NAME: 'Bench',
    GIT_AUTHOR_EMAIL: 'bench@localhost',
    GIT_COMMITTER_NAME: 'Bench',
    GIT_COMMITTER_EMAIL: 'bench@localhost',
  };
  git(gitdir, ['read-tree', 'main'], env);
  const files = git(gitdir, ['ls-files'], env)
    .split('\n')
    .filter((file) => file.endsWith('.md'))
    .slice(0, count);
  let head = git(gitdir, ['rev-parse', 'main']);
  for (const [i, file] of files.entries()) {
    const text = `${git(gitdir, ['show', `${head}:${file}`])}\nEdit ${i}.\n`;
    const blob = git(gitdir, ['hash-object', '-w', '--stdin'], env, text);
    git(gitdir, ['update-index', '--cacheinfo', `100644,${blob},${file}`], env);
    head = git(gitdir, ['commit-tree', git(gitdir, ['write-tree'], env), '-p', head, '-m', `Edit ${file}`], env);
  }
  git(gitdir, ['update-ref', 'refs/heads/main', head]);
  fs.rmSync(env.GIT_INDEX_FILE, { force: true });
}

async function firstReadMs(dataDir: string, m: SeedManifest, load: LoadGenerator): Promise<number> {
  return (await firstCallsMs(dataDir, m, load, [readCalls(m)[0]!]))[0]!;
}

async function benchSize(total: number, load: LoadGenerator): Promise<string[]> {
  const seed = await seededDataDir(total, { loose: false, commitEach: true });
  const m = seed.manifest;
  const dataDir = path.join(SCRATCH, 'run', `history-${total}`);
  const gitdir = path.join(dataDir, 'orgs', `${m.orgId}.git`);
  const without: number[] = [];
  const withGraph: number[] = [];
  const fullWriteMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const graph of round % 2 === 0 ? [false, true] : [true, false]) {
      copyDataDir(seed.dir, dataDir);
      fs.rmSync(path.join(dataDir, 'cache', 'orgs', m.orgId), { recursive: true, force: true });
      if (graph) {
        // What the store's background write leaves (commit-graph.ts), made here so it is not timed.
        fullWriteMs.push(graphWriteMs(gitdir));
      }
      (graph ? withGraph : without).push(await firstReadMs(dataDir, m, load));
    }
  }
  // The last start may have been stopped before its own write finished: complete the graph first.
  graphWriteMs(gitdir);
  const unchangedMs: number[] = [];
  const afterEditsMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    unchangedMs.push(graphWriteMs(gitdir));
    addEdits(gitdir, NEW_COMMITS);
    afterEditsMs.push(graphWriteMs(gitdir));
  }
  return [
    `${total} artifacts, one commit each (packed), ${ROUNDS} round(s), no saved state; a commit-graph write takes ${fmt(median(fullWriteMs) / 1000, 1)} s in the background`,
    ratioLine('first read, commit-graph', 'ms', withGraph, without, 'first read <= 1 s'),
    ratioLine('graph write again, nothing new', 'ms', unchangedMs, fullWriteMs),
    ratioLine(`graph write again, ${NEW_COMMITS} new commits`, 'ms', afterEditsMs, fullWriteMs),
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
