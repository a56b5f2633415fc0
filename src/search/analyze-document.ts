import type { Encoder } from 'flexsearch';
import { normalizeText, termSequence } from './encoder.js';
import type { IndexedDocument } from './types.js';

/** A document with the derived forms the ranking needs, computed once at indexing time. */
export interface AnalyzedDocument {
  readonly doc: IndexedDocument;
  /** Encoded title terms, space-delimited and padded: " guest checkout flow ". */
  readonly titleTerms: string;
  readonly bodyTerms: string;
  /** Distinct encoded title terms, for how much of the title the query covers. */
  readonly distinctTitleTerms: readonly string[];
  readonly normalizedTitle: string;
  /** Lower-cased title for the deterministic tie-break. */
  readonly sortTitle: string;
}

export function analyzeDocument(encoder: Encoder, doc: IndexedDocument): AnalyzedDocument {
  const titleTerms = termSequence(encoder, doc.title);
  return {
    doc,
    titleTerms,
    bodyTerms: termSequence(encoder, doc.body),
    distinctTitleTerms: [...new Set(titleTerms.trim().split(' ').filter(Boolean))],
    normalizedTitle: normalizeText(doc.title),
    sortTitle: doc.title.toLowerCase(),
  };
}
