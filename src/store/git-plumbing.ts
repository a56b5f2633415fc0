import { execFile } from 'node:child_process';

const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

/** The environment without GIT_* variables that could point git at another repository or index. */
export function cleanEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('GIT_')) env[key] = value;
  }
  return { ...env, GIT_TERMINAL_PROMPT: '0' };
}

/**
 * Runs a native git plumbing command on a bare repository, for work over a whole tree that git
 * does in one process far faster than object-by-object writes (fast-import of a commit that
 * moves every file).
 */
export function gitPlumbing(
  gitdir: string,
  args: readonly string[],
  options: { input?: string | Buffer } = {},
): Promise<Buffer> {
  const command = args.find((arg, i) => !arg.startsWith('-') && args[i - 1] !== '-c') ?? 'git';
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      ['--git-dir', gitdir, ...args],
      { encoding: 'buffer', maxBuffer: MAX_OUTPUT_BYTES, env: cleanEnvironment() },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`git ${command} failed: ${stderr.toString('utf8').trim() || error.message}`));
        else resolve(stdout);
      },
    );
    // A command that exits before reading its input closes the pipe; its exit status tells why.
    child.stdin?.on('error', () => undefined);
    if (options.input === undefined) child.stdin?.end();
    else child.stdin?.end(options.input);
  });
}
