export { applyPatch, MAX_HUNKS, type AppliedPatch } from './apply-patch.js';
export { checkDocumentText } from './check-document-text.js';
export { unifiedDiff } from './unified-diff.js';
export { countLineChanges } from './count-line-changes.js';
export { conflictMarkers, mergeWithMarkers, threeWayMerge } from './three-way-merge.js';
export { applyPatchOffLoop, countLineChangesOffLoop, lineOriginsOffLoop, unifiedDiffOffLoop } from './diff-thread.js';
