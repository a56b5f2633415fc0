import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { launcher, run, RunFailure } from '../../../src/launcher/index.js';

const env = process.env;

const failureOf = (promise: Promise<unknown>): Promise<RunFailure> =>
  promise.then(
    () => {
      throw new Error('the run succeeded');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(RunFailure);
      return error as RunFailure;
    },
  );

describe('run', () => {
  it('starts processes from the launcher, not by forking this process', async () => {
    const parent = Number((await run('sh', ['-c', 'echo $PPID'], { env })).toString().trim());
    expect(parent).toBeGreaterThan(0);
    expect(parent).not.toBe(process.pid);
    const parentOfLauncher = Number(
      execFileSync('ps', ['-o', 'ppid=', '-p', String(parent)], { encoding: 'utf8' }).trim(),
    );
    expect(parentOfLauncher).toBe(process.pid);
  });

  it('passes input and answers the whole output, however large', async () => {
    const input = Buffer.from('some content\n'.repeat(1000));
    const expected = execFileSync('git', ['hash-object', '--stdin'], { input, encoding: 'utf8' });
    expect((await run('git', ['hash-object', '--stdin'], { env, input })).toString()).toBe(expected);
    const large = await run('head', ['-c', '5000000', '/dev/zero'], { env });
    expect(large.length).toBe(5_000_000);
    expect(large.every((byte) => byte === 0)).toBe(true);
  });

  it('fails with the exit code and stderr of a failed command', async () => {
    const failure = await failureOf(run('git', ['--git-dir', '/nonexistent/repo.git', 'log'], { env }));
    expect(failure.reason).toBe('exit');
    expect(failure.exitCode).not.toBe(0);
    expect(failure.stderr).toMatch(/not a git repository/);
    expect(failure.message).toMatch(/not a git repository/);
  });

  it('fails a command that cannot be started, one that runs too long and one that writes too much', async () => {
    expect((await failureOf(run('no-such-command-for-specbase', [], { env }))).reason).toBe('not-started');
    const started = Date.now();
    expect((await failureOf(run('sleep', ['10'], { env, timeoutMs: 200 }))).reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await failureOf(run('head', ['-c', '1000000', '/dev/zero'], { env, maxOutputBytes: 1000 }))).reason).toBe(
      'too-much-output',
    );
  });
});

describe('launch', () => {
  it('streams input and output both ways while the process runs', async () => {
    const child = launcher.launch('cat', [], { env });
    const received: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => received.push(chunk));
    child.stdin.write('first\n');
    await expect.poll(() => Buffer.concat(received).toString()).toBe('first\n');
    child.stdin.end('second\n');
    const [code] = await new Promise<[number | null, string | null]>((resolve) =>
      child.once('close', (code: number | null, signal: string | null) => resolve([code, signal])),
    );
    expect(code).toBe(0);
    expect(Buffer.concat(received).toString()).toBe('first\nsecond\n');
  });

  it('kills a process, even one asked to stop before it had started', async () => {
    for (const killAt of ['spawn', 'now'] as const) {
      const child = launcher.launch('sleep', ['30'], { env });
      const closed = new Promise<[number | null, string | null]>((resolve) =>
        child.once('close', (code: number | null, signal: string | null) => resolve([code, signal])),
      );
      child.stdout.resume();
      if (killAt === 'now') child.kill();
      else child.once('spawn', () => child.kill());
      child.stdin.end();
      expect(await closed).toEqual([null, 'SIGTERM']);
    }
  });

  it('runs many processes at once, each with its own streams', async () => {
    const outputs = await Promise.all(
      Array.from({ length: 12 }, (_, i) => run('sh', ['-c', `echo process ${i}`], { env })),
    );
    expect(outputs.map((out) => out.toString())).toEqual(Array.from({ length: 12 }, (_, i) => `process ${i}\n`));
  });

  it('leaves no socket directory behind when the process that started it is killed', async () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'launcher-test-'));
    try {
      const launcherModule = new URL('../../../src/launcher/index.ts', import.meta.url).href;
      const script = `const { run } = await import(${JSON.stringify(launcherModule)}); await run('true', [], { env: process.env }); console.log('ready'); setInterval(() => {}, 1000);`;
      const service = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        env: { ...process.env, TMPDIR: tmp },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const [ready] = (await once(service.stdout, 'data')) as [Buffer];
      expect(ready.toString()).toBe('ready\n');
      const socketDirs = () => readdirSync(tmp).filter((name) => name.startsWith('specbase-launcher-'));
      expect(socketDirs()).toHaveLength(1);
      service.kill('SIGKILL');
      await expect.poll(socketDirs, { timeout: 10_000 }).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
