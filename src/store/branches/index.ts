export { branchChanges } from './branch-changes.js';
export { changeRequestKey, isMainKey, parseStoreKey, type StoreKey } from './keys.js';
export { mergeBranch, type BranchMerge } from './merge-branch.js';
export { forkBranch } from './fork-branch.js';
