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
import type { BranchChanges, BranchCommit, BranchFile } from '../types.js';

const MAX_COMMITS_LISTED = 500;

/** The commits after `base` up to `tip`, newest first, as `git log base..tip` lists them. */
async function branchCommits(gitdir: string, base: string, tip: string): Promise<BranchCommit[]> {
  if (base === tip) return [];
  const format = '--format=%H%x00%an%x00%ae%x00%aI%x00%s%x1e';
  const out = await gitPlumbing(gitdir, ['log', format, `--max-count=${MAX_COMMITS_LISTED}`, `${base}..${tip}`]);
  return out
    .toString('utf8')
    .split('\x1e')
    .map((record) => record.trim())
    .filter(Boolean)
    .map((record) => {
      const [commit = '', name = '', email = '', authoredAt = '', subject = ''] = record.split('\0');
      return { commit, author: { name, email }, authoredAt, subject };
    });
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

const facts = (
  text: string | null,
  path: string,
): Pick<BranchFile, 'artifactId' | 'title' | 'type' | 'workspaceId'> => {
  if (text === null || !path.endsWith('.md')) return {};
  try {
    const file = parseRepositoryFile(text, path);
    const { id, workspace } = file.frontmatter;
    return file.kind === 'artifact'
      ? { artifactId: id, title: file.frontmatter.title, type: file.frontmatter.type, workspaceId: workspace }
      : { artifactId: id, title: file.frontmatter.name, type: 'folder', workspaceId: workspace };
  } catch {
    return {};
  }
};

/**
 * What the branch changed since it parted from `main`: the combined diff a reviewer reads.
 * `from`, where it parted, for a branch `main` has taken in (where it parts from `main` now is
 * its own tip).
 */
export async function branchChanges(repo: Repo, main: string, tip: string, from?: string): Promise<BranchChanges> {
  const base = from ?? (await mergeBase(repo.gitdir, main, tip));
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
  return { base, tip, main, files, commits: await branchCommits(repo.gitdir, base, tip) };
}
