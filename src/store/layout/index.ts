/**
 * The repository's layout and file format: paths, frontmatter, titles, commit messages. The
 * lowest layer of the store, beside git/.
 */
export {
  parseRepositoryFile,
  parseSourceDocument,
  renderArtifactFile,
  renderFolderFile,
  type ArtifactFrontmatter,
  type RepositoryFile,
} from './frontmatter.js';
export {
  artifactCommitMessage,
  checkedSummary,
  folderCommitMessage,
  headerSafe,
  IMPORT_TRAILER,
  parseCommitMessage,
  type ParsedMessage,
} from './message.js';
export {
  artifactPath,
  basenameOf,
  dirnameOf,
  folderPath,
  PRODUCT_PATH,
  shardDir,
  shardedArtifactPath,
  shardedFolderPath,
  shortId,
  slugify,
} from './paths.js';
export { checkedTitle, headingTitle } from './title.js';
export { idsInOrg, linkedIds, linkKeysInOrg, linkTargets } from './links.js';
