import { promises as fsp } from 'node:fs';
import path from 'node:path';
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

const LOOSE_OBJECT = /^[0-9a-f]{2}\/[0-9a-f]{38}$/;

/**
 * `repo` with a push's quarantine in front, for reading: a loose object is read from
 * `quarantineDir` (where `git unpack-objects` put the pushed ones) if it is there, from the
 * repository otherwise. isomorphic-git then reads pushed commits, trees and blobs in process.
 */
export function withQuarantine(repo: Repo, quarantineDir: string): Repo {
  const objects = `${repo.gitdir}/objects/`;
  async function readFile(file: string, options?: Parameters<typeof fsp.readFile>[1]) {
    const name = file.startsWith(objects) ? file.slice(objects.length) : '';
    if (LOOSE_OBJECT.test(name)) {
      try {
        return await fsp.readFile(path.join(quarantineDir, name), options);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return fsp.readFile(file, options);
  }
  // isomorphic-git reads objects by path with readFile alone: the overloads of fs's own need not be matched.
  const promises = { ...repo.fs.promises, readFile: readFile as typeof fsp.readFile };
  return { ...repo, fs: { ...repo.fs, promises } };
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
  return (
    (await readLooseBlobOffLoop(repo.gitdir, oid)) ??
    (await git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache })).blob
  );
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
