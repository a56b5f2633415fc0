import git, { type CommitObject, type TreeEntry } from 'isomorphic-git';
import { repositoryFs, type Durability } from './atomic-fs.js';
import { readLooseBlobOffLoop } from './loose-blob-thread.js';
import { MAIN_REF } from './refs.js';

/**
 * One organization's bare repository, with isomorphic-git's pack cache and how writes reach the
 * disk, seen through one branch: `main`, or a change request's.
 */
export interface Repo {
  readonly gitdir: string;
  readonly ref: string;
  readonly cache: object;
  readonly durability: Durability;
  readonly fs: ReturnType<typeof repositoryFs>;
}

export type { CommitObject, TreeEntry };

export const openRepo = (gitdir: string, durability: Durability, ref = MAIN_REF): Repo => ({
  gitdir,
  ref,
  cache: {},
  durability,
  fs: repositoryFs(durability),
});

const decoder = new TextDecoder('utf-8');

/**
 * A blob's text: a loose one read and inflated off the event loop (see loose-blob-thread.ts),
 * anything else by isomorphic-git, which inflates in JavaScript on the loop.
 */
export async function readBlobText(repo: Repo, oid: string): Promise<string> {
  const bytes =
    (await readLooseBlobOffLoop(repo.gitdir, oid)) ??
    (await git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache })).blob;
  return decoder.decode(bytes);
}

export async function readTreeEntries(repo: Repo, oid: string): Promise<TreeEntry[]> {
  return (await git.readTree({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache })).tree;
}

export async function readCommitObject(repo: Repo, oid: string): Promise<CommitObject> {
  return (await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache })).commit;
}

export async function writeBlobText(repo: Repo, text: string): Promise<string> {
  return git.writeBlob({ fs: repo.fs, gitdir: repo.gitdir, blob: Buffer.from(text, 'utf8') });
}

export async function writeTreeEntries(repo: Repo, tree: TreeEntry[]): Promise<string> {
  return git.writeTree({ fs: repo.fs, gitdir: repo.gitdir, tree });
}

export async function writeCommitObject(repo: Repo, commit: CommitObject): Promise<string> {
  return git.writeCommit({ fs: repo.fs, gitdir: repo.gitdir, commit });
}

/** Runs `work`'s object writes side by side; resolves once every one is on disk (see repositoryFs). */
export function writingObjectsTogether<T>(repo: Repo, work: () => Promise<T>): Promise<T> {
  return repo.fs.writingTogether(work);
}

export async function initBareRepo(repo: Repo): Promise<void> {
  await git.init({ fs: repo.fs, gitdir: repo.gitdir, bare: true, defaultBranch: 'main' });
}
