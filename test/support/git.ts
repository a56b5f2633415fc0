import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The real git CLI against a repository (bare or not); returns stdout. */
export async function git(repo: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', [`--git-dir=${repo}`, ...args], {
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' },
  });
  return stdout;
}
