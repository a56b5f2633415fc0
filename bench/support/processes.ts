import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoopDelay, ProbeRequest } from './child-ipc.js';
import type { ExportMeasure, ExportRequest } from './export-child.js';
import type { LoadRequest, RunStats, ToolCall } from './load-generator.js';
import type { WireEra } from './mcp-wire.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

const newestChange = (dir: string): number =>
  Math.max(
    0,
    ...fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => fs.statSync(path.join(e.parentPath, e.name)).mtimeMs),
  );

/** dist/ as `npm run build` leaves it, built again when a source changed after it. */
function ensureBuilt(): void {
  const built = path.join(ROOT, 'dist', 'main.js');
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= newestChange(path.join(ROOT, 'src'))) return;
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

/** A benchmark process: each server under test and the load generator run in their own. */
export interface BenchProcess {
  readonly child: ChildProcess;
  readonly port: number;
  /** Sends a request and waits for the next answer (requests are never overlapped). */
  ask<T>(message: unknown): Promise<T>;
  /** Graceful stop when the process supports it, then waits for its exit. */
  stop(): Promise<void>;
}

/** Every child is TypeScript run through tsx (see boot-child.mjs), the same process kind for servers and baselines. */
async function startChild(
  script: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<BenchProcess> {
  const child = fork(path.join(HERE, 'boot-child.mjs'), [script], {
    execArgv: nodeArgs,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<{ port?: number }>((resolve, reject) => {
    child.once('message', (message: { kind: string; port?: number }) => resolve(message));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
  const ask = <T>(message: unknown): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`${script} exited with ${code}`));
      child.once('exit', onExit);
      child.once('message', (answer: { kind: string; value?: T; message?: string }) => {
        child.off('exit', onExit);
        if (answer.kind === 'failed') reject(new Error(`${script}: ${answer.message}`));
        else resolve((answer.kind === 'answer' ? answer.value : answer) as T);
      });
      child.send(message as object);
    });
  return {
    child,
    port: ready.port ?? 0,
    ask,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.send({ kind: 'stop' } satisfies ProbeRequest);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface ServerProcess extends BenchProcess {
  readonly mcpUrl: string;
  loopStart(): Promise<void>;
  loopRead(): Promise<LoopDelay>;
}

function asServer(proc: BenchProcess, mcpPath: string): ServerProcess {
  return {
    ...proc,
    mcpUrl: `http://127.0.0.1:${proc.port}${mcpPath}`,
    loopStart: async () => void (await proc.ask({ kind: 'loop-start' } satisfies ProbeRequest)),
    loopRead: async () => (await proc.ask<{ delay: LoopDelay }>({ kind: 'loop-read' } satisfies ProbeRequest)).delay,
  };
}

/** SPECBASE_BENCH_CPU_PROF=dir writes a V8 CPU profile of every server process (Specbase and the baselines) into dir. */
const PROFILE_DIR = process.env.SPECBASE_BENCH_CPU_PROF;
const PROFILE = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(PROFILE_DIR)}`] : [];

/** The node options `npm start` gives the service (package.json's start script): the bench runs it with the same. */
function serviceNodeOptions(): string[] {
  const start = (
    JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
  ).scripts.start.split(/\s+/);
  return start.slice(start.indexOf('node') + 1, start.indexOf('dist/main.js')).filter((word) => word.startsWith('--'));
}

/** Specbase (compiled, as `npm start` runs it, node options too) over a prepared data directory; extra environment (say SPECBASE_FSYNC) passes through. */
export async function startSpecbase(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  ensureBuilt();
  return asServer(
    await startChild('specbase-server.ts', { ...env, BENCH_DATA_DIR: dataDir }, [...serviceNodeOptions(), ...PROFILE]),
    '/api/mcp/mcp',
  );
}

/** The bare SDK server (bare-server.ts), through express as the SDK's examples serve it, or on node's http alone. */
export async function startBareServer(routing: 'express' | 'node' = 'express'): Promise<ServerProcess> {
  return asServer(await startChild('bare-server.ts', { BARE_ROUTING: routing }, PROFILE), '/mcp');
}

/** The bare v2 SDK server of the 2026-07-28 era (bare-modern-server.ts): createMcpHandler on node's http. */
export async function startBareModernServer(): Promise<ServerProcess> {
  return asServer(await startChild('bare-modern-server.ts', {}, PROFILE), '/mcp');
}

export interface LoadGenerator {
  readonly pid: number;
  open(group: string, url: string, headers: Record<string, string>, clients: number, era?: WireEra): Promise<void>;
  run(group: string, calls: ToolCall[], warmupMs: number, measureMs: number): Promise<RunStats>;
  first(
    url: string,
    headers: Record<string, string>,
    calls: ToolCall[],
  ): Promise<{ ms: number[]; errors: (string | null)[] }>;
  close(): Promise<void>;
  stop(): Promise<void>;
}

export async function startLoadGenerator(): Promise<LoadGenerator> {
  const proc = await startChild('load-generator.ts');
  const ask = <T>(request: LoadRequest) => proc.ask<T>(request);
  return {
    pid: proc.child.pid!,
    open: async (group, url, headers, clients, era) =>
      void (await ask({ kind: 'open', group, url, headers, clients, ...(era ? { era } : {}) })),
    run: (group, calls, warmupMs, measureMs) => ask<RunStats>({ kind: 'run', group, calls, warmupMs, measureMs }),
    first: (url, headers, calls) => ask({ kind: 'first', url, headers, calls }),
    close: async () => void (await ask({ kind: 'close' })),
    stop: async () => {
      proc.child.kill('SIGTERM');
      await new Promise<void>((resolve) =>
        proc.child.exitCode !== null ? resolve() : proc.child.once('exit', () => resolve()),
      );
    },
  };
}

/** A raw FlexSearch build of a seeded organization's documents, timed in a fresh process. */
export async function rawFlexBuildMs(total: number, workspaceId: string): Promise<number> {
  const proc = await startChild('flex-build.ts');
  try {
    return (await proc.ask<{ ms: number }>({ kind: 'build', total, workspaceId })).ms;
  } finally {
    proc.child.kill('SIGTERM');
  }
}

/** The raw isomorphic-git commit loop, kept in one process across rounds like the server it is compared with. */
export async function startRawGitLoop(): Promise<{
  run(gitdir: string, filepath: string, ms: number): Promise<number>;
  stop(): void;
}> {
  const proc = await startChild('raw-git-loop.ts');
  return {
    run: async (gitdir, filepath, ms) =>
      (await proc.ask<{ perSecond: number }>({ kind: 'loop', gitdir, filepath, ms })).perSecond,
    stop: () => void proc.child.kill('SIGTERM'),
  };
}

/** One `specbase export` in a fresh process (export-child.ts), with `gc` exposed for its starting heap. */
export async function exportInChild(request: Omit<ExportRequest, 'kind'>): Promise<ExportMeasure> {
  ensureBuilt();
  const proc = await startChild('export-child.ts', {}, ['--expose-gc']);
  try {
    return await proc.ask<ExportMeasure>({ kind: 'export', ...request } satisfies ExportRequest);
  } finally {
    proc.child.kill('SIGTERM');
  }
}

/** A suite over organization sizes: one load generator serves every size; each size prints its lines. */
export async function eachSize(
  title: string,
  sizes: readonly number[],
  benchSize: (total: number, load: LoadGenerator) => Promise<string[]>,
): Promise<void> {
  console.log(title);
  const load = await startLoadGenerator();
  try {
    for (const total of sizes) console.log((await benchSize(total, load)).join('\n'));
  } finally {
    await load.stop();
  }
}
