export { GitStore, type GitStoreOptions, type NewOrganization } from './git-store.js';
export { parseRepositoryFile, parseSourceDocument, slugify } from './layout/index.js';
export * from './types.js';
export { changeRequestKey } from './branches/index.js';
export {
  blameFile,
  FSYNC,
  looseObjectFiles,
  NO_FSYNC,
  parsePorcelainBlame,
  pushableBranches,
  syncPath,
  type BlamedLine,
  type BlameLimits,
  type Durability,
} from './git/index.js';
