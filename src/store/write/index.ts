/** Writes, each one commit: create, update, delete or restore an artifact, create a folder. */
export { createArtifact, validateNewArtifact } from './create-artifact.js';
export { createFolder, validateNewFolder } from './create-folder.js';
export { updateArtifact, validateBodyChange } from './update-artifact.js';
export { deleteArtifact, subtreeOf } from './delete-artifact.js';
export { requirementTypeOfBody } from './requirement-type.js';
export { restoreDeleted } from './restore-deleted.js';
export {
  deleteFolder,
  folderSubtree,
  moveArtifact,
  moveFolder,
  renameFolder,
  type Destination,
} from './move-artifact.js';
export { treeWithFiles } from './tree-edit.js';
