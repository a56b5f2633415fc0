import { execFile } from 'node:child_process';
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface GitResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the real `git` CLI with no user or system configuration and no terminal prompts; a
 * token, when given, is answered by GIT_ASKPASS only after the server asks for credentials.
 */
export class GitCli {
  private constructor(
    private readonly home: string,
    private readonly askpass: string,
  ) {}

  static async create(): Promise<GitCli> {
    const home = await mkdtemp(path.join(tmpdir(), 'specbase-git-home-'));
    const askpass = path.join(home, 'askpass.sh');
    await writeFile(
      askpass,
      '#!/bin/sh\ncase "$1" in\n  Username*) echo engineer ;;\n  *) printf "%s\\n" "$SPECBASE_TEST_TOKEN" ;;\nesac\n',
    );
    await chmod(askpass, 0o755);
    return new GitCli(home, askpass);
  }

  run(
    args: readonly string[],
    options: { cwd?: string; token?: string; env?: Record<string, string> } = {},
  ): Promise<GitResult> {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: this.home,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
      GIT_ASKPASS: this.askpass,
      SPECBASE_TEST_TOKEN: options.token ?? '',
      ...options.env,
    };
    return new Promise((resolve) => {
      execFile('git', [...args], { cwd: options.cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      });
    });
  }

  /** Like run, but a non-zero exit fails with git's own words. */
  async ok(
    args: readonly string[],
    options: { cwd?: string; token?: string; env?: Record<string, string> } = {},
  ): Promise<string> {
    const result = await this.run(args, options);
    if (result.code !== 0) throw new Error(`git ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
    return result.stdout;
  }
}
