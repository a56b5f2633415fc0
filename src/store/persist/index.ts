/**
 * The catalog saved in SQLite among this process's caches, rebuilt from Git when missing,
 * stale or at odds with the repository; and what earlier versions cached inside the repository, removed.
 */
export { removeFormerCaches } from './former-caches.js';
export { SavedState, savedStateFile, saveOrDrop } from './saved-state.js';
export { savedStateMismatch } from './saved-state-mismatch.js';
