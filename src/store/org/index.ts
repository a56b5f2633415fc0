/**
 * Organizations opened and kept at `main`: handles, catching up with commits, reads, the move to
 * the sharded layout.
 */
export {
  BodyCache,
  checkDocumentSize,
  readBodyAt,
  readRecord,
  type OrgHandle,
  type RepoPlace,
  type WriteEnv,
} from './org-handle.js';
export { OrgKeeper } from './org-keeper.js';
export { readDocuments, readMany } from './read-many.js';
export { VersionReaders } from './version-readers.js';
export { LinkIndexes, type OrgLinks } from './link-indexes.js';
export { advanceTo, type ParsedFile } from './advance.js';
