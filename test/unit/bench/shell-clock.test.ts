import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ShellClock } from '../../../bench/support/shell-clock.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-clock-test-'));
const clock = new ShellClock(dir, process.env);

afterAll(() => {
  clock.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('ShellClock, the shell that times benchmark commands', () => {
  it('answers how long a command ran, as the shell measured it', async () => {
    const ms = await clock.time('sleep', ['0.2']);
    expect(ms).toBeGreaterThanOrEqual(195);
    expect(ms).toBeLessThan(2000);
  });

  it('passes each argument through as one word, quotes and spaces included, in its directory', async () => {
    const word = `it's  a "b" $HOME`;
    await clock.time('sh', ['-c', 'printf %s "$1" > said.txt', 'sh', word]);
    expect(fs.readFileSync(path.join(dir, 'said.txt'), 'utf8')).toBe(word);
  });

  it('rejects with the exit code and what the command wrote to stderr, and goes on timing after', async () => {
    await expect(clock.time('sh', ['-c', 'echo "no such ref" >&2; exit 3'])).rejects.toThrow(
      /exited with 3: no such ref/,
    );
    await expect(clock.time('true', [])).resolves.toBeGreaterThan(0);
  });
});
