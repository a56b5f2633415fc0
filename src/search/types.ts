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
  /** In (0, 1]; an exact title match beats a body mention, all words beat some. */
  readonly score: number;
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
}
