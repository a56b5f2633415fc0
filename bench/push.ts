/**
 * `git push` to main (issue 49) at 10,000 artifacts, against baselines measured in the same run.
 *
 * One-file push: the wall time of `git push` as a shell that stays running times it (see
 * ShellClock; the whole client: its processes and two HTTP requests, the server's
 * `git unpack-objects` and the store's checks, the store following main, webhooks and audit
 * rows) for a commit that adds one line to one requirement, against the
 * same one-line edit through MCP (`specbase_edit_acceptance_criterion` on the wire, the client's
 * time from request to answer). Rounds take the three measurements in turn, each round starting
 * one later; target: push p50 <= 2x the edit's p50.
 *
 * The git client's own floor: the same push to a receiver that does nothing (it answers with
 * Specbase's advertisement, made by Specbase's own code from the repository, and reports every
 * push accepted, reading and dropping the pack), in rounds alternating with the others: the
 * processes and requests of `git push` itself, which no server can take away, down to the
 * remote-tracking branch git updates after a push to a named remote. Push minus floor is what
 * the server spends.
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
import { pushAdvertisement } from '../src/git-http/advertise-push.js';
import { FLUSH_PKT, pktLine } from '../src/git-http/pkt-line.js';
import { pushReport } from '../src/git-http/push-report.js';
import { copyDataDir, SCRATCH, seededDataDir } from '../test/support/seed.js';
import { authHeaders } from './mcp.js';
import { callTool, closeSession, openSession } from './support/mcp-wire.js';
import { startSpecbase } from './support/processes.js';
import { ShellClock } from './support/shell-clock.js';
import { benchSizes, fmt, median, percentile, QUICK } from './support/stats.js';

const exec = promisify(execFile);
const [SIZE] = benchSizes([10_000], [1_000]);
const ROUNDS = QUICK ? 6 : 30;
const WARMUP = 2;
const LONG_PUSH = QUICK ? 100 : 500;

export async function runPushBench(): Promise<void> {
  const seed = await seededDataDir(SIZE!);
  const m = seed.manifest;
  const dataDir = path.join(SCRATCH, 'run', `push-${SIZE}`);
  copyDataDir(seed.dir, dataDir);
  const work = path.join(SCRATCH, 'run', `push-work-${SIZE}`);
  const clone = path.join(work, 'clone');
  const copy = path.join(work, 'plain-copy.git');
  fs.rmSync(copy, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const server = await startSpecbase(dataDir);
  const agent = new http.Agent({ keepAlive: true });
  const session = await openSession(new URL(server.mcpUrl), authHeaders(m), agent);
  const gitEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0' };
  const withIdentity = (args: readonly string[]) => [
    '-c',
    `http.extraHeader=Authorization: Bearer ${m.token}`,
    '-c',
    'user.name=Bench Engineer',
    '-c',
    'user.email=engineer@example.com',
    ...args,
  ];
  const git = (...args: string[]) =>
    exec('git', withIdentity(args), { cwd: clone, maxBuffer: 64 * 1024 * 1024, env: gitEnv });
  let clock: ShellClock | undefined;
  const timedGit = (...args: string[]) => clock!.time('git', withIdentity(args));
  try {
    const url = `http://127.0.0.1:${server.port}/git/${m.orgId}.git`;
    // The last run's clone is brought up to date rather than made anew: removing its 10,000 files
    // just before measuring made every file created in the next minutes slower on a filesystem
    // that holds back the numbers of recently freed files (ext4 without a journal), for pushes
    // and edits alike, and by more the more files an operation creates.
    if (fs.existsSync(path.join(clone, '.git'))) {
      await git('remote', 'set-url', 'origin', url);
      await git('fetch', '-q', 'origin');
      await git('reset', '-q', '--hard', 'origin/main');
    } else {
      await exec('git', ['-c', `http.extraHeader=Authorization: Bearer ${m.token}`, 'clone', '-q', url, clone]);
    }
    // Objects the runs leave are few; a gc starting in the middle of a measured push is not.
    await git('config', 'gc.auto', '0');
    clock = new ShellClock(clone, gitEnv);
    const criterion = m.sample['acceptance_criterion']!;
    const heading = criterion.body.split('\n')[0]!;
    const edit = async () => {
      const started = performance.now();
      await callTool(session, 'specbase_edit_acceptance_criterion', {
        acceptanceCriterionId: criterion.id,
        patch: `@@\n ${heading}\n+- edited line\n`,
      });
      return performance.now() - started;
    };
    const pushed = path.join(clone, m.sample['requirement']!.path);
    let line = 0;
    const commitOne = async () => {
      fs.appendFileSync(pushed, `\n- pushed line ${line++}\n`);
      await git('commit', '-qam', `Add line ${line}`);
    };
    // On top of Specbase's main, which an edit may just have moved (the no-op receiver advertises it too).
    const commitOnMain = async () => {
      await git('pull', '-q', '--rebase', 'origin', 'main');
      await commitOne();
    };
    const pushOne = async () => {
      await commitOnMain();
      return timedGit('push', '-q', 'origin', 'HEAD:main');
    };
    // The same push timed from here, as this benchmark timed it before ShellClock: for comparison.
    const pushOneFromNode = async () => {
      await commitOnMain();
      const started = performance.now();
      await git('push', '-q', 'origin', 'HEAD:main');
      return performance.now() - started;
    };

    const gitdir = path.join(dataDir, 'orgs', `${m.orgId}.git`);
    const floor = await startNullReceiver(gitdir);
    await git('remote', 'remove', 'floor').catch(() => undefined);
    await git('remote', 'add', 'floor', floor.url);
    const pushToFloor = async () => {
      await commitOnMain();
      const ms = await timedGit('push', '-q', 'floor', 'HEAD:main');
      await git('reset', '-q', '--hard', 'HEAD~1');
      return ms;
    };

    for (let i = 0; i < WARMUP; i++) {
      await edit();
      await pushOne();
      await pushToFloor();
      await pushOneFromNode();
    }
    const edits: number[] = [];
    const pushes: number[] = [];
    const floors: number[] = [];
    const pushesFromNode: number[] = [];
    const measures = [
      async () => edits.push(await edit()),
      async () => pushes.push(await pushOne()),
      async () => floors.push(await pushToFloor()),
      async () => pushesFromNode.push(await pushOneFromNode()),
    ];
    // Each round starts one later, so that each kind follows each other kind (and the
    // background work it leaves: audit rows, saved state, webhooks) equally often.
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < measures.length; i++) await measures[(round + i) % measures.length]!();
    }
    floor.close();

    await git('pull', '-q', '--rebase', 'origin', 'main');
    await exec('git', ['clone', '-q', '--bare', gitdir, copy]);
    for (let i = 0; i < LONG_PUSH; i++) await commitOne();
    const plainMs = await timedGit('push', '-q', copy, 'HEAD:main');
    const specbaseMs = await timedGit('push', '-q', 'origin', 'HEAD:main');
    const perSecond = (ms: number) => LONG_PUSH / (ms / 1000);

    const row = (label: string, ms: number[]) =>
      `  ${label.padEnd(26)} p50 ${fmt(median(ms), 1)} ms  p95 ${fmt(percentile(ms, 0.95), 1)} ms`;
    console.log(
      [
        `git push to main at ${SIZE} artifacts, ${ROUNDS} rounds after ${WARMUP} warm-up, in turn (order rotated each round)`,
        row('one-line edit through MCP', edits),
        row('one-file git push', pushes),
        `  p50 ratio push/edit: ${(median(pushes) / median(edits)).toFixed(2)}x (target <= 2x)`,
        row('git push, no-op receiver', floors),
        row('push timed from Node.js', pushesFromNode),
        `  its p50 ratio to the edit: ${(median(pushesFromNode) / median(edits)).toFixed(2)}x (the process starting git adds its own cost)`,
        `  push p50 minus the client's floor: ${fmt(median(pushes) - median(floors), 1)} ms, ${((median(pushes) - median(floors)) / median(edits)).toFixed(2)}x the edit`,
        `${LONG_PUSH}-commit push (one line each)`,
        `  plain git push into a bare copy: ${fmt(plainMs, 0)} ms, ${fmt(perSecond(plainMs), 0)} commits/s`,
        `  Specbase push:                   ${fmt(specbaseMs, 0)} ms, ${fmt(perSecond(specbaseMs), 0)} commits/s (${(perSecond(specbaseMs) / perSecond(plainMs)).toFixed(2)}x the plain push)`,
      ].join('\n'),
    );
  } finally {
    clock?.close();
    await closeSession(session).catch(() => undefined);
    agent.destroy();
    await server.stop();
  }
}

/**
 * A receive-pack endpoint that takes every push and does nothing with it: its advertisement is
 * Specbase's own, made by Specbase's code from the repository for each request, as a push's
 * first request gets it, but without the work the service starts for a pack to come; a push's
 * pack is read to its end and dropped, and git is told its ref was updated. What `git push`
 * costs against it is the client's own floor: its processes, both requests, and no server work.
 */
async function startNullReceiver(gitdir: string) {
  // What git asks for when Specbase's advertisement offers it.
  const report = pushReport(new Set(['report-status', 'side-band-64k']), {
    message: '',
    unpack: null,
    refs: [{ ref: 'refs/heads/main', refused: null }],
  });
  const receiver = http.createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'application/x-git-receive-pack-advertisement' });
      res.end(Buffer.concat([pktLine('# service=git-receive-pack\n'), FLUSH_PKT, pushAdvertisement(gitdir)]));
      return;
    }
    req.resume();
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/x-git-receive-pack-result' }).end(report));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port: floorPort } = receiver.address() as { port: number };
  return { url: `http://127.0.0.1:${floorPort}/floor.git`, close: () => receiver.close() };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runPushBench();
}
