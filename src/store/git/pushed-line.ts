import { subjectOf, type PushedCommitStep } from './pushed-history.js';
import { readCommitObject, type CommitObject, type Repo, type TreeEntry } from './repo.js';
import { changedEntries, TreeCache } from './tree-diff.js';

const side = (entry: TreeEntry | null) => entry && { mode: entry.mode, oid: entry.oid };

/**
 * The commits a push brings when they are one line of single-parent commits on top of `from`,
 * read in process through `repo` (the push's objects in front, see withPushedObjects), parents
 * first, each with the entries it changed against its parent, as pushedHistory's `git log`
 * gives them. Undefined for anything else within `limit` commits (a merge, a line that starts
 * elsewhere, a rewind): `git log` answers those.
 */
export async function pushedLine(
  repo: Repo,
  range: { readonly from: string | null; readonly to: string },
  limit: number,
): Promise<PushedCommitStep[] | undefined> {
  if (range.from === null) return undefined;
  const line: { oid: string; commit: CommitObject }[] = [];
  for (let oid = range.to; oid !== range.from;) {
    if (line.length === limit) return undefined;
    const commit = await readCommitObject(repo, oid);
    if (commit.parent.length !== 1) return undefined;
    line.unshift({ oid, commit });
    oid = commit.parent[0]!;
  }
  const trees = new TreeCache();
  let parentTree = (await readCommitObject(repo, range.from)).tree;
  const steps: PushedCommitStep[] = [];
  for (const { oid, commit } of line) {
    const changes = await changedEntries(repo, parentTree, commit.tree, trees);
    steps.push({
      oid,
      parents: commit.parent,
      author: { name: commit.author.name, email: commit.author.email },
      subject: subjectOf(commit.message),
      changes: changes.map((change) => ({ path: change.path, before: side(change.before), after: side(change.after) })),
      commit,
    });
    parentTree = commit.tree;
  }
  return steps;
}
