export { branchChanges, type BranchChanges, type BranchCommit, type BranchFile } from './branch-changes.js';
export { changeRequestKey, isChangeRequestNumber, isMainKey, parseStoreKey, type StoreKey } from './keys.js';
export { mergeBranch, type BranchMerge, type MergeOutcome } from './merge-branch.js';
export { forkBranch } from './fork-branch.js';
