import { gitEnvironment, run, RunFailure } from '../../launcher/index.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import { isObjectId } from '../../ids.js';

/** One line of a file as `git blame` attributes it. */
export interface BlamedLine {
  /** 1-based line number in the file at the blamed commit. */
  readonly line: number;
  readonly text: string;
  readonly commit: string;
  readonly author: { readonly name: string; readonly email: string };
  readonly authoredAt: string;
}

export interface BlameLimits {
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
}

const DEFAULT_LIMITS: BlameLimits = { timeoutMs: 10_000, maxOutputBytes: 32 * 1024 * 1024 };

/** Reads `git blame --porcelain`: a header per line, commit details only the first time a commit appears. */
export function parsePorcelainBlame(output: string): BlamedLine[] {
  const commits = new Map<string, { name: string; email: string; time: number }>();
  const lines: BlamedLine[] = [];
  let current: { commit: string; line: number } | undefined;
  for (const row of output.split('\n')) {
    const header = /^([0-9a-f]{40}) \d+ (\d+)(?: \d+)?$/.exec(row);
    if (header) {
      current = { commit: header[1]!, line: Number(header[2]) };
      if (!commits.has(current.commit)) commits.set(current.commit, { name: '', email: '', time: 0 });
      continue;
    }
    if (!current) continue;
    const info = commits.get(current.commit)!;
    if (row.startsWith('\t')) {
      lines.push({
        line: current.line,
        text: row.slice(1),
        commit: current.commit,
        author: { name: info.name, email: info.email },
        authoredAt: new Date(info.time * 1000).toISOString(),
      });
      current = undefined;
    } else if (row.startsWith('author ')) info.name = row.slice(7);
    else if (row.startsWith('author-mail ')) info.email = row.slice(12).replace(/^<|>$/g, '');
    else if (row.startsWith('author-time ')) info.time = Number(row.slice(12));
  }
  return lines;
}

/**
 * `git blame --porcelain <commit> -- <path>` on the bare repository, bounded in time and in
 * output; the arguments are fixed or validated, never a shell string.
 */
export function blameFile(
  gitdir: string,
  commit: string,
  filePath: string,
  limits: BlameLimits = DEFAULT_LIMITS,
): Promise<BlamedLine[]> {
  if (!isObjectId(commit)) return Promise.reject(new NotFoundError('version'));
  const args = ['--git-dir', gitdir, 'blame', '--porcelain', commit, '--', filePath];
  return run('git', args, {
    env: gitEnvironment(),
    timeoutMs: limits.timeoutMs,
    maxOutputBytes: limits.maxOutputBytes,
  }).then(
    (stdout) => parsePorcelainBlame(stdout.toString('utf8')),
    (error: unknown) => {
      const tooMuch = error instanceof RunFailure && (error.reason === 'timeout' || error.reason === 'too-much-output');
      throw tooMuch
        ? new ConflictError('the blame of this document took too long; try again later')
        : new NotFoundError('version');
    },
  );
}
