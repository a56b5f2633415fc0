/**
 * Git objects, refs and locks: git processes, object readers (loose objects in a thread of their
 * own), `main` and its lock. The lowest layer of the store, beside layout/.
 */
export { FSYNC, NO_FSYNC, syncPath, type Durability } from './atomic-fs.js';
export { blameFile, parsePorcelainBlame, type BlamedLine, type BlameLimits } from './blame.js';
export { BlobBatch, MissingObjectError } from './blob-batch.js';
export { CatFileBatch } from './cat-file-batch.js';
export { CommitGraphs } from './commit-graph.js';
export { gitPlumbing } from './git-plumbing.js';
export { prepareLooseBlobs } from './loose-blob-thread.js';
export { looseObjectFiles } from './loose-object.js';
export { KeyedMutex } from './mutex.js';
export {
  deletedFiles,
  firstParentHistory,
  pathHistory,
  regularFileChanges,
  type HistoryStep,
} from './native-history.js';
export { pushedHistory, type PushedCommitStep, type PushedFileChange } from './pushed-history.js';
export { pushedLine } from './pushed-line.js';
export { PushedObjects, RefusedObjectError } from './pushed-objects.js';
export { lockRef } from './ref-lock.js';
export { changeRequestRef, MAIN_REF, pushableBranches, readMain, readRef, refStampThisTick, writeRef } from './refs.js';
export {
  initBareRepo,
  openRepo,
  readBlobBytes,
  readBlobText,
  readCommitObject,
  readTreeEntries,
  writeBlobText,
  writeCommitObject,
  writeTreeEntries,
  withPushedObjects,
  writingObjectsTogether,
  type CommitObject,
  type Repo,
  type TreeEntry,
} from './repo.js';
export { changedFiles, TreeCache, type FileChange } from './tree-diff.js';
