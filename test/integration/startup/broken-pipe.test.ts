import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, freePort, startMain, type Started } from './process.js';

/** main.ts lets tool calls finish for 5 s and cuts streams after 10 s; a stop takes less than both. */
const GRACE_MS = 10_000;

let root: string;
const running = new Set<Started>();

beforeAll(async () => {
  await ensureBuilt();
  root = await mkdtemp(path.join(os.tmpdir(), 'specbase-pipe-'));
});
afterEach(async () => {
  for (const started of running) {
    if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill('SIGKILL');
    await started.exited;
  }
  running.clear();
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

/** A real pipe (a FIFO, as a shell's `|` makes) and the write end for the server. */
function fifo(name: string): { path: string; writer(): number } {
  const file = path.join(root, name);
  execFileSync('mkfifo', [file]);
  // Opening the write end waits for a reader; the reader's open does not wait when non-blocking.
  return { path: file, writer: () => openSync(file, constants.O_WRONLY) };
}

/** A pipe whose reader has already gone: every write to it fails with EPIPE. */
function pipeWithoutReader(name: string): number {
  const pipe = fifo(name);
  const reader = openSync(pipe.path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = pipe.writer();
  closeSync(reader);
  return writer;
}

/** A fresh data directory: the first start creates the demo and logs the most. */
async function start(stdio: { stdout?: number; stderr?: number }): Promise<Started & { port: number }> {
  const port = await freePort();
  const started = startMain({ SPECBASE_DATA_DIR: path.join(root, `data-${port}`), PORT: String(port) }, stdio);
  for (const fd of new Set(Object.values(stdio))) closeSync(fd);
  running.add(started);
  return { ...started, port };
}

async function health(port: number): Promise<{ status: string; droppedLogLines: number }> {
  const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_000) });
  expect(response.status).toBe(200);
  return (await response.json()) as { status: string; droppedLogLines: number };
}

/** The server answers within `ms` of starting (the first start seeds the demo, which takes a while). */
async function answering(port: number, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await health(port);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function stopsWithinGrace(started: Started): Promise<void> {
  const t0 = performance.now();
  started.child.kill('SIGTERM');
  const code = await Promise.race([
    started.exited,
    new Promise((resolve) => setTimeout(() => resolve('still running'), GRACE_MS)),
  ]);
  expect(code).toBe(0);
  expect(performance.now() - t0).toBeLessThan(GRACE_MS);
}

describe('a log or banner reader that goes away never stops the service', () => {
  it('`node dist/main.js 2>&1 | head -c 100`: answers after head exits, and SIGTERM stops it', async () => {
    const pipe = fifo('both');
    const head = spawn('head', ['-c', '100', pipe.path], { stdio: ['ignore', 'ignore', 'ignore'] });
    const headExited = new Promise((resolve) => head.once('exit', resolve));
    const writer = pipe.writer();
    const started = await start({ stdout: writer, stderr: writer });
    await headExited;
    await answering(started.port);
    for (let i = 0; i < 5; i++) expect((await health(started.port)).status).toBe('ok');
    await stopsWithinGrace(started);
  });

  it('stderr on a pipe without a reader: lines are dropped and counted, requests answered, SIGTERM stops it', async () => {
    const started = await start({ stderr: pipeWithoutReader('stderr') });
    await started.waitFor('Or as one command:');
    await answering(started.port);
    // The first write finds the pipe broken (on Node 20 that is oidc-provider's "Unsupported
    // runtime" warning, on 22 and 24 our first log line); every line after it is dropped and
    // counted, "listening" at least.
    expect((await health(started.port)).droppedLogLines).toBeGreaterThanOrEqual(1);
    await stopsWithinGrace(started);
  });

  it('stdout (the banner) on a pipe without a reader: the service runs, says so on stderr, and stops on SIGTERM', async () => {
    const started = await start({ stdout: pipeWithoutReader('stdout') });
    await started.waitFor('"msg":"listening"', 'stderr');
    await answering(started.port);
    await started.waitFor('stdout is closed', 'stderr');
    expect((await health(started.port)).droppedLogLines).toBe(0);
    await stopsWithinGrace(started);
  });
});
