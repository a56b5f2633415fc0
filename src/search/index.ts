export { OrgSearchIndex } from './org-search-index.js';
export {
  SearchIndexes,
  type LoadDocuments,
  type LoadedDocuments,
  type OrgSearch,
  type SavedIndexDelta,
  type SearchIndexesOptions,
} from './search-indexes.js';
export type { IndexedDocument, SearchAnswer, SearchHit, SearchQuery } from './types.js';
