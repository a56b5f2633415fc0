/** Writes, each one commit: create or update an artifact, create a folder. */
export { createArtifact, validateNewArtifact } from './create-artifact.js';
export { createFolder, validateNewFolder } from './create-folder.js';
export { updateArtifact, validateBodyChange } from './update-artifact.js';
