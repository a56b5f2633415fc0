import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../support/free-port.js';

export const MAIN = path.resolve('dist/main.js');

/** `npm test` builds first; a lone run of these tests builds if nothing is there yet. */
export async function ensureBuilt(): Promise<void> {
  if (!existsSync(MAIN)) await promisify(execFile)('npm', ['run', 'build'], { timeout: 120_000 });
}

export interface Started {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name). */
  readonly exited: Promise<number | string>;
  /** Resolves once stdout or stderr (as given) contains `text`. */
  waitFor(text: string | RegExp, stream?: 'stdout' | 'stderr', timeoutMs?: number): Promise<void>;
}

/**
 * `node dist/main.js` with exactly `env` on top of PATH and HOME: the real start command.
 * `stdio` can put stdout or stderr on a file descriptor of the test's own (then it is not captured).
 */
export function startMain(env: Record<string, string>, stdio: { stdout?: number; stderr?: number } = {}): Started {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', stdio.stdout ?? 'pipe', stdio.stderr ?? 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  const listeners = new Set<() => void>();
  child.stdout?.on('data', (chunk: Buffer) => {
    out.stdout += chunk.toString();
    for (const listener of listeners) listener();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    out.stderr += chunk.toString();
    for (const listener of listeners) listener();
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  return {
    child,
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    exited,
    waitFor(text, stream = 'stdout', timeoutMs = 30_000) {
      const seen = () => (typeof text === 'string' ? out[stream].includes(text) : text.test(out[stream]));
      return new Promise<void>((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        const check = () => {
          if (!seen()) return;
          done();
          resolve();
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out waiting for ${String(text)} on ${stream}:\n${out.stdout}\n${out.stderr}`));
        }, timeoutMs);
        listeners.add(check);
        void exited.then(() => {
          if (seen()) return check();
          done();
          reject(new Error(`exited before printing ${String(text)}:\n${out.stdout}\n${out.stderr}`));
        });
        check();
      });
    },
  };
}

export { freePort };

/**
 * Where a server of its own is reached on this machine (a free loopback port), and the
 * environment that starts it there over `dataDir`: quiet logs, no flushes (its disk is not what
 * such a test measures), plus `extra`.
 */
export async function loopbackServer(
  dataDir: string,
  extra: Record<string, string> = {},
): Promise<{ baseUrl: string; env: Record<string, string> }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      SPECBASE_DATA_DIR: dataDir,
      SPECBASE_BASE_URL: baseUrl,
      SPECBASE_LOG_LEVEL: 'warn',
      SPECBASE_FSYNC: 'off',
      ...extra,
    },
  };
}
