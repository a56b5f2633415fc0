/**
 * `git push` to main (issue 49) at 10,000 artifacts, against baselines measured in the same run.
 *
 * One-file push: the wall time of `git push` (the whole client: its processes and two HTTP
 * requests, the server's `git unpack-objects` and the store's checks, the store following
 * main, webhooks and audit rows) for a commit that adds one line to one requirement, against the
 * same one-line edit through MCP (`specbase_edit_acceptance_criterion` on the wire, the client's
 * time from request to answer). Rounds alternate; target: push p50 <= 2x the edit's p50.
 *
 * Long push: 500 commits, each adding a line to one file, pushed at once, in commits/s, against
 * the same 500 commits pushed by plain git into a bare copy of the same repository on the same
 * disk (`git push /path/copy.git`): git's own pack transfer and ref update with no checks and no
 * HTTP, the least any push of these commits can cost. The ratio is what the checks, HTTP and
 * following main cost on top.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { copyDataDir, SCRATCH, seededDataDir } from '../test/support/seed.js';
import { authHeaders } from './mcp.js';
import { callTool, closeSession, openSession } from './support/mcp-wire.js';
import { startSpecbase } from './support/processes.js';
import { benchSizes, fmt, median, percentile, QUICK } from './support/stats.js';

const exec = promisify(execFile);
const [SIZE] = benchSizes([10_000], [1_000]);
const ROUNDS = QUICK ? 5 : 15;
const WARMUP = 2;
const LONG_PUSH = QUICK ? 100 : 500;

export async function runPushBench(): Promise<void> {
  const seed = await seededDataDir(SIZE!);
  const m = seed.manifest;
  const dataDir = path.join(SCRATCH, 'run', `push-${SIZE}`);
  copyDataDir(seed.dir, dataDir);
  const work = path.join(SCRATCH, 'run', `push-work-${SIZE}`);
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const server = await startSpecbase(dataDir);
  const agent = new http.Agent({ keepAlive: true });
  const session = await openSession(new URL(server.mcpUrl), authHeaders(m), agent);
  const clone = path.join(work, 'clone');
  const git = (...args: string[]) =>
    exec(
      'git',
      [
        '-c',
        `http.extraHeader=Authorization: Bearer ${m.token}`,
        '-c',
        'user.name=Bench Engineer',
        '-c',
        'user.email=engineer@example.com',
        ...args,
      ],
      { cwd: clone, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } },
    );
  const timed = async (work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };
  try {
    await exec('git', [
      '-c',
      `http.extraHeader=Authorization: Bearer ${m.token}`,
      'clone',
      '-q',
      `http://127.0.0.1:${server.port}/git/${m.orgId}.git`,
      clone,
    ]);
    const criterion = m.sample['acceptance_criterion']!;
    const heading = criterion.body.split('\n')[0]!;
    const edit = () =>
      callTool(session, 'specbase_edit_acceptance_criterion', {
        acceptanceCriterionId: criterion.id,
        patch: `@@\n ${heading}\n+- edited line\n`,
      });
    const pushed = path.join(clone, m.sample['requirement']!.path);
    let line = 0;
    const commitOne = async () => {
      fs.appendFileSync(pushed, `\n- pushed line ${line++}\n`);
      await git('commit', '-qam', `Add line ${line}`);
    };
    const pushOne = async () => {
      await git('pull', '-q', '--rebase', 'origin', 'main');
      await commitOne();
      return timed(() => git('push', '-q', 'origin', 'HEAD:main'));
    };

    for (let i = 0; i < WARMUP; i++) {
      await edit();
      await pushOne();
    }
    const edits: number[] = [];
    const pushes: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      edits.push(await timed(edit));
      pushes.push(await pushOne());
    }

    await git('pull', '-q', '--rebase', 'origin', 'main');
    const copy = path.join(work, 'plain-copy.git');
    await exec('git', ['clone', '-q', '--bare', path.join(dataDir, 'orgs', `${m.orgId}.git`), copy]);
    for (let i = 0; i < LONG_PUSH; i++) await commitOne();
    const plainMs = await timed(() => git('push', '-q', copy, 'HEAD:main'));
    const specbaseMs = await timed(() => git('push', '-q', 'origin', 'HEAD:main'));
    const perSecond = (ms: number) => LONG_PUSH / (ms / 1000);

    const row = (label: string, ms: number[]) =>
      `  ${label.padEnd(26)} p50 ${fmt(median(ms), 1)} ms  p95 ${fmt(percentile(ms, 0.95), 1)} ms`;
    console.log(
      [
        `git push to main at ${SIZE} artifacts, ${ROUNDS} rounds after ${WARMUP} warm-up, alternating`,
        row('one-line edit through MCP', edits),
        row('one-file git push', pushes),
        `  p50 ratio push/edit: ${(median(pushes) / median(edits)).toFixed(2)}x (target <= 2x)`,
        `${LONG_PUSH}-commit push (one line each)`,
        `  plain git push into a bare copy: ${fmt(plainMs, 0)} ms, ${fmt(perSecond(plainMs), 0)} commits/s`,
        `  Specbase push:                   ${fmt(specbaseMs, 0)} ms, ${fmt(perSecond(specbaseMs), 0)} commits/s (${(perSecond(specbaseMs) / perSecond(plainMs)).toFixed(2)}x the plain push)`,
      ].join('\n'),
    );
  } finally {
    await closeSession(session).catch(() => undefined);
    agent.destroy();
    await server.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runPushBench();
}
