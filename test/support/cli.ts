import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const CLI = path.resolve('bin/specbase.js');
const exec = promisify(execFile);

/**
 * `node bin/specbase.js ...args`, as a user runs the CLI. A CLI still running after 30 s is
 * killed and the call fails, so a command that never exits fails its test instead of outliving it.
 */
export const runCli = (args: readonly string[], env: NodeJS.ProcessEnv = process.env) =>
  exec(process.execPath, [CLI, ...args], { env, timeout: 30_000, killSignal: 'SIGKILL' });
