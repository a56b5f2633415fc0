/** The catalog saved in SQLite: a cache, rebuilt from Git when missing or stale. */
export { SavedState, savedStateFile, saveOrDrop } from './saved-state.js';
