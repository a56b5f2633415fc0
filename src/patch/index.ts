export { applyPatch, type AppliedPatch } from './apply-patch.js';
export { unifiedDiff } from './unified-diff.js';
export { countLineChanges } from './count-line-changes.js';
export { threeWayMerge } from './three-way-merge.js';
