import { gitEnvironment, run } from '../../launcher/index.js';
import type { Author, QuarantineObjects } from '../types.js';
import { parseRawEntries, type RawChange } from './native-history.js';

/** A path a pushed commit changed, with both sides' mode and object (null on the side where it is absent). */
export type PushedFileChange = RawChange;

export interface PushedCommitStep {
  readonly oid: string;
  readonly parents: readonly string[];
  readonly author: Author;
  readonly subject: string;
  /** Against its first parent. */
  readonly changes: readonly PushedFileChange[];
}

const RECORD = '\x1e';
const FIELD = '\x1f';
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
    `--format=${RECORD}%H${FIELD}%P${FIELD}%an${FIELD}%ae${FIELD}%s${FIELD}`,
    range.to,
    ...(range.from ? ['--not', range.from] : []),
    '--',
  ];
  const out = await run('git', args, { maxOutputBytes: MAX_LOG_BYTES, env: gitEnvironment(objects) });
  return parsePushedLog(out.toString('utf8'));
}

/** Parses the output of the `git log` above; exported for its unit test. */
export function parsePushedLog(output: string): PushedCommitStep[] {
  return output
    .split(RECORD)
    .slice(1)
    .map((record) => {
      const fields = record.split(FIELD);
      const [oid, parents, name, email, subject] = fields;
      return {
        oid: oid!,
        parents: parents ? parents.split(' ') : [],
        author: { name: name ?? '', email: email ?? '' },
        subject: subject ?? '',
        changes: parseRawEntries(fields.slice(5).join(FIELD)),
      };
    });
}
