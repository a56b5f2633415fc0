import { gitEnvironment, run } from '../../launcher/index.js';
import type { Author, QuarantineObjects } from '../types.js';
import { COMMIT_FORMAT, parseLogRecords, parseRawEntries, type RawChange } from './native-history.js';
import type { CommitObject } from './repo.js';

/** A path a pushed commit changed, with both sides' mode and object (null on the side where it is absent). */
export type PushedFileChange = RawChange;

export interface PushedCommitStep {
  readonly oid: string;
  readonly parents: readonly string[];
  readonly author: Author;
  readonly subject: string;
  /** Against its first parent. */
  readonly changes: readonly PushedFileChange[];
  /** The commit as the store's history reads it, for following the branch once it lands. */
  readonly commit: CommitObject;
}

/** git's `%s`: the message's first paragraph, its lines joined by spaces. */
export function subjectOf(message: string): string {
  const lines = message.replace(/^(\s*\n)+/, '').split('\n');
  const end = lines.findIndex((line) => line.trim() === '');
  return (end < 0 ? lines : lines.slice(0, end)).map((line) => line.trimEnd()).join(' ');
}

const MAX_LOG_BYTES = 256 * 1024 * 1024;

/**
 * The commits a push brings, `to` not reachable from `from`, parents first, each with the paths
 * it changed against its first parent: one `git log` over the quarantine. Every mode is kept
 * (symlinks and submodules too), since the caller judges them.
 */
export async function pushedHistory(
  gitdir: string,
  range: { readonly from: string | null; readonly to: string },
  objects: QuarantineObjects,
): Promise<PushedCommitStep[]> {
  const args = [
    '--git-dir',
    gitdir,
    'log',
    '--topo-order',
    '--reverse',
    '--no-renames',
    '--diff-merges=first-parent',
    '--raw',
    '--no-abbrev',
    '-z',
    `--format=${COMMIT_FORMAT}`,
    range.to,
    ...(range.from ? ['--not', range.from] : []),
    '--',
  ];
  const out = await run('git', args, { maxOutputBytes: MAX_LOG_BYTES, env: gitEnvironment(objects) });
  return parsePushedLog(out.toString('utf8'));
}

/** Parses the output of the `git log` above. */
function parsePushedLog(output: string): PushedCommitStep[] {
  return parseLogRecords(output).map(({ oid, commit, raw }) => ({
    oid,
    parents: commit.parent,
    author: { name: commit.author.name, email: commit.author.email },
    subject: subjectOf(commit.message),
    changes: parseRawEntries(raw),
    commit,
  }));
}
