import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitStore } from '../../../src/store/index.js';
import { alice, capabilityInput, git, openStoreFixture, ORG, type StoreFixture } from './fixture.js';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'edit-stream.ts');

let fx: StoreFixture;
beforeEach(async () => {
  fx = await openStoreFixture();
});
afterEach(async () => {
  await fx.close();
});

/** Runs the edit stream until `acks` edits are acknowledged, then SIGKILLs it a moment later. */
function runAndKill(ids: readonly string[], acks: number, delayMs: number): Promise<{ pid: number; acked: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, fx.dataDir, ORG, ...ids], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acked: string[] = [];
    let stderr = '';
    let buffer = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const commit = /^ack ([0-9a-f]{40}) /.exec(line)?.[1];
        if (commit) acked.push(commit);
        if (acked.length === acks) setTimeout(() => child.kill('SIGKILL'), delayMs);
      }
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve({ pid: child.pid!, acked });
      else reject(new Error(`edit stream ended by itself (code ${code}): ${stderr}`));
    });
  });
}

describe('a writer killed mid-stream', () => {
  it('leaves a valid repository holding every acknowledged edit, and the store keeps working', async () => {
    const ids: string[] = [];
    for (const title of ['One', 'Two', 'Three'])
      ids.push((await fx.store.create(ORG, capabilityInput(fx.productId, title), alice)).artifact.id);
    const acked: string[] = [];
    let lastPid = 0;
    for (const [acks, delayMs] of [
      [10, 0],
      [20, 3],
      [8, 1],
      [25, 7],
    ] as const) {
      const run = await runAndKill(ids, acks, delayMs);
      acked.push(...run.acked);
      lastPid = run.pid;
      git(fx.gitdir, 'fsck', '--strict', '--no-dangling');
      expect(git(fx.gitdir, 'cat-file', '-t', 'main')).toBe('commit');
      const log = new Set(git(fx.gitdir, 'rev-list', 'main').split('\n'));
      expect(acked.filter((commit) => !log.has(commit))).toEqual([]);
    }
    expect(acked.length).toBeGreaterThanOrEqual(63);

    const lock = path.join(fx.gitdir, 'refs/heads/main.lock');
    if (!existsSync(lock)) await writeFile(lock, `${lastPid}\n`);
    const fresh = new GitStore({ dataDir: fx.dataDir });
    const before = await fresh.read(ORG, ids[0]!);
    const after = await fresh.update(ORG, ids[0]!, { body: `${before.body}after the crash\n`, verb: 'edit' }, alice);
    expect(git(fx.gitdir, 'rev-parse', 'main')).toBe(after.commit);
    expect(existsSync(lock)).toBe(false);
    const indexed = new Set((await Promise.all(ids.map((id) => fresh.history(ORG, id)))).flat().map((h) => h.commit));
    expect(acked.filter((commit) => !indexed.has(commit))).toEqual([]);
    const edited = await fx.store.read(ORG, ids[0]!);
    expect(edited.body.endsWith('after the crash\n')).toBe(true);
    git(fx.gitdir, 'fsck', '--strict', '--no-dangling');
  });
});
