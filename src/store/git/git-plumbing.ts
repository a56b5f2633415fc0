import { gitEnvironment, run } from '../../launcher/index.js';

const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

/**
 * Runs a native git plumbing command on a bare repository, for work over a whole tree that git
 * does in one process far faster than object-by-object writes (fast-import of a commit that
 * moves every file).
 */
export function gitPlumbing(
  gitdir: string,
  args: readonly string[],
  options: { input?: string | Buffer; maxOutputBytes?: number } = {},
): Promise<Buffer> {
  const command = args.find((arg, i) => !arg.startsWith('-') && args[i - 1] !== '-c') ?? 'git';
  const input = options.input === undefined ? {} : { input: options.input };
  const maxOutputBytes = options.maxOutputBytes ?? MAX_OUTPUT_BYTES;
  return run('git', ['--git-dir', gitdir, ...args], { maxOutputBytes, env: gitEnvironment(), ...input }).catch(
    (error: Error) => {
      throw new Error(`git ${command} failed: ${error.message}`);
    },
  );
}
