import { parseRepositoryFile } from '../layout/index.js';
import {
  changedFiles,
  gitPlumbing,
  readBlobText,
  readCommitObject,
  TreeCache,
  type FileChange,
  type Repo,
} from '../git/index.js';

/** One file a change request changed, as it was where it parted from `main` and as it is on the branch. */
export interface BranchFile {
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
  /** From the file's frontmatter (after, else before); absent for a file that is not an artifact's. */
  readonly artifactId?: string;
  readonly title?: string;
  readonly type?: string;
}

export interface BranchChanges {
  /** Where the branch parted from `main` (their merge base), the branch's tip, and `main` now. */
  readonly base: string;
  readonly tip: string;
  readonly main: string;
  readonly files: readonly BranchFile[];
}

/** The commit both lines descend from, as `git merge-base` finds it. */
export async function mergeBase(gitdir: string, a: string, b: string): Promise<string> {
  return (await gitPlumbing(gitdir, ['merge-base', a, b])).toString('utf8').trim();
}

/** Whether `ancestor` is `commit` or one of its ancestors. */
export async function isAncestor(gitdir: string, ancestor: string, commit: string): Promise<boolean> {
  return (await mergeBase(gitdir, ancestor, commit)) === ancestor;
}

/** Files whose blob differs between two commits' trees. */
export async function filesChangedBetween(repo: Repo, from: string, to: string): Promise<FileChange[]> {
  const [a, b] = await Promise.all([readCommitObject(repo, from), readCommitObject(repo, to)]);
  return changedFiles(repo, a.tree, b.tree, new TreeCache());
}

const facts = (text: string | null, path: string): Pick<BranchFile, 'artifactId' | 'title' | 'type'> => {
  if (text === null || !path.endsWith('.md')) return {};
  try {
    const file = parseRepositoryFile(text, path);
    return file.kind === 'artifact'
      ? { artifactId: file.frontmatter.id, title: file.frontmatter.title, type: file.frontmatter.type }
      : { artifactId: file.frontmatter.id, title: file.frontmatter.name, type: 'folder' };
  } catch {
    return {};
  }
};

/** What the branch changed since it parted from `main`: the combined diff a reviewer reads. */
export async function branchChanges(repo: Repo, main: string, tip: string): Promise<BranchChanges> {
  const base = await mergeBase(repo.gitdir, main, tip);
  const changes = await filesChangedBetween(repo, base, tip);
  const text = (oid: string | null) => (oid ? readBlobText(repo, oid) : Promise.resolve(null));
  const files = await Promise.all(
    changes.map(async (change) => {
      const [before, after] = await Promise.all([text(change.before), text(change.after)]);
      const known = facts(after, change.path);
      return { path: change.path, before, after, ...(known.artifactId ? known : facts(before, change.path)) };
    }),
  );
  files.sort((a, b) => a.path.localeCompare(b.path));
  return { base, tip, main, files };
}
