export { GitStore, type GitStoreOptions, type NewOrganization } from './git-store.js';
export { parseRepositoryFile } from './frontmatter.js';
export { slugify } from './paths.js';
export * from './types.js';
export { FSYNC, NO_FSYNC, type Durability } from './atomic-fs.js';
export { blameFile, parsePorcelainBlame, type BlamedLine, type BlameLimits } from './blame.js';
