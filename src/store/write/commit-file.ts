import { ConflictError } from '../../errors.js';
import { headerSafe } from '../layout/index.js';
import type { OrgState } from '../catalog/index.js';
import {
  readRef,
  writeBlobText,
  writeCommitObject,
  writeRef,
  writingObjectsTogether,
  type Repo,
} from '../git/index.js';
import type { Author } from '../types.js';
import { treeWithFiles } from './tree-edit.js';

export interface FileCommit {
  readonly path: string;
  readonly content: string;
  readonly message: string;
  readonly author: Author;
  readonly committer: Author;
}

/** One commit changing several files: each written with its content, or removed (null). */
export interface FilesCommit {
  readonly files: readonly { readonly path: string; readonly content: string | null }[];
  readonly message: string;
  readonly author: Author;
  readonly committer: Author;
}

/**
 * Writes one file as one commit on top of `state.head` and moves `main` to it. The caller holds
 * the organization's lock. See commitFiles.
 */
export async function commitFile(
  repo: Repo,
  state: OrgState,
  change: FileCommit,
): Promise<{ commit: string; blob: string; timestamp: number }> {
  const { commit, blobs, timestamp } = await commitFiles(repo, state, {
    ...change,
    files: [{ path: change.path, content: change.content }],
  });
  return { commit, blob: blobs[0]!, timestamp };
}

/**
 * Writes files (or removes them) as one commit on top of `state.head` and moves `main` to it.
 * The caller holds the organization's lock. Objects are written first, side by side, each
 * atomically and synced as the repository's durability says, and all on disk before the ref is
 * touched; the ref rename is the commit point, done only if `main` still is the parent, and the
 * commit is acknowledged only once the ref is on disk too. Returns the blob of each file
 * written, in order (empty for a removed one).
 */
export async function commitFiles(
  repo: Repo,
  state: OrgState,
  change: FilesCommit,
): Promise<{ commit: string; blobs: string[]; timestamp: number }> {
  const timestamp = Math.floor(Date.now() / 1000);
  const blobs: string[] = [];
  const { rootTree, dirs, commit } = await writingObjectsTogether(repo, async () => {
    for (const file of change.files) blobs.push(file.content === null ? '' : await writeBlobText(repo, file.content));
    const edits = change.files.map((file, i) => ({ path: file.path, blob: file.content === null ? null : blobs[i]! }));
    const trees = await treeWithFiles(repo, state, edits);
    const commit = await writeCommitObject(repo, {
      message: change.message,
      tree: trees.rootTree,
      parent: state.head ? [state.head] : [],
      author: { ...headerSafe(change.author), timestamp, timezoneOffset: 0 },
      committer: { ...headerSafe(change.committer), timestamp, timezoneOffset: 0 },
    });
    return { ...trees, commit };
  });
  if (readRef(repo.gitdir, repo.ref) !== state.head) {
    throw new ConflictError('the repository moved on during the write; nothing was written');
  }
  await writeRef(repo.gitdir, repo.ref, commit, repo.durability);
  state.moveTo(commit, rootTree, dirs);
  return { commit, blobs, timestamp };
}
