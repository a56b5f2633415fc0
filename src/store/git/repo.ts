import git, { type CommitObject, type TreeEntry } from 'isomorphic-git';
import { repositoryFs, type Durability } from './atomic-fs.js';
import { MissingObjectError } from './cat-file-batch.js';
import { readLooseBlobOffLoop } from './loose-blob-thread.js';
import type { ObjectSource } from './pushed-objects.js';
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
  /** Objects read before isomorphic-git is asked: a push's, while it is checked (see withPushedObjects). */
  readonly objects?: ObjectSource;
}

export type { CommitObject, TreeEntry };

export const openRepo = (gitdir: string, durability: Durability, ref = MAIN_REF): Repo => ({
  gitdir,
  ref,
  cache: {},
  durability,
  fs: repositoryFs(durability),
});

/**
 * `repo` with a push's objects in front, for reading (see PushedObjects): pushed commits, trees
 * and blobs, and the repository's own loose ones, are read in process from their files; packed
 * objects by isomorphic-git. An object none of them holds is a MissingObjectError.
 */
export function withPushedObjects(repo: Repo, objects: ObjectSource): Repo {
  return { ...repo, objects };
}

/** Reads `oid` from `repo.objects` when it answers, else by isomorphic-git; a push's missing object is named as such. */
async function readObject<T>(
  repo: Repo,
  oid: string,
  fromSource: (objects: ObjectSource) => T | undefined,
  read: () => Promise<T>,
): Promise<T> {
  if (!repo.objects) return read();
  const found = fromSource(repo.objects);
  if (found !== undefined) return found;
  try {
    return await read();
  } catch (error) {
    if (error instanceof git.Errors.NotFoundError) throw new MissingObjectError(oid);
    throw error;
  }
}

const decoder = new TextDecoder('utf-8');

/**
 * A blob's text: a loose one read and inflated off the event loop (see loose-blob-thread.ts),
 * anything else by isomorphic-git, which inflates in JavaScript on the loop.
 */
export async function readBlobText(repo: Repo, oid: string): Promise<string> {
  return decoder.decode(await readBlobBytes(repo, oid));
}

/** A blob's bytes, read as readBlobText reads them. */
export async function readBlobBytes(repo: Repo, oid: string): Promise<Uint8Array> {
  return readObject(
    repo,
    oid,
    (objects) => objects.blob(oid),
    async () =>
      (await readLooseBlobOffLoop(repo.gitdir, oid)) ??
      (await git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache })).blob,
  );
}

export async function readTreeEntries(repo: Repo, oid: string): Promise<TreeEntry[]> {
  return readObject(
    repo,
    oid,
    (objects) => objects.tree(oid),
    async () => (await git.readTree({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache })).tree,
  );
}

export async function readCommitObject(repo: Repo, oid: string): Promise<CommitObject> {
  return readObject(
    repo,
    oid,
    (objects) => objects.commit(oid),
    async () => (await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache })).commit,
  );
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
