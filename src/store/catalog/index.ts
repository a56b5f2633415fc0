/**
 * An organization's catalog, folders and history index as of one commit, and how a change or a
 * move is recorded in it.
 */
export { OrgState, type DirListing } from './org-state.js';
export {
  artifactMeta,
  isoSeconds,
  recordArtifactChange,
  recordArtifactRemoval,
  type ArtifactChange,
  type ArtifactRemoval,
} from './record-change.js';
export { recordMove, renamesIn } from './record-move.js';
export { LinkIndex } from './link-index.js';
export { deletedArtifacts, importedPaths } from './deleted.js';
