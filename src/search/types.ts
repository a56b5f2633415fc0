import type { ArtifactType } from '../artifacts/index.js';

export interface SearchQuery {
  readonly query: string;
  readonly types?: readonly ArtifactType[];
  /** Only artifacts in these workspaces are returned. */
  readonly workspaceIds: ReadonlySet<string>;
  /** 1-50. */
  readonly limit: number;
}

export interface SearchHit {
  readonly id: string;
  readonly type: ArtifactType;
  readonly title: string;
  readonly workspaceId: string;
  /** A snippet around the first match, on one line: runs of white space are one space. */
  readonly preview: string;
  /** In (0, 1], comparable within one answer: BM25F with proximity, as a share of what the query's terms could add. */
  readonly score: number;
}

/** A search's results, and what the caller should know of how its query was taken (words left out). */
export interface SearchAnswer {
  readonly hits: SearchHit[];
  readonly notice?: string;
}

/** What the index keeps of a document besides its text. */
export type DocumentFacts = Omit<IndexedDocument, 'body'>;

/** What the index needs to know of a document. */
export interface IndexedDocument {
  readonly id: string;
  readonly type: ArtifactType;
  readonly workspaceId: string;
  readonly title: string;
  readonly body: string;
  /** When the document last changed (ISO 8601): equal scores rank the more recent first. */
  readonly updatedAt: string;
}
