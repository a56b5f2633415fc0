import type { Encoder } from 'flexsearch';
import { InvalidInputError } from '../errors.js';
import { normalizeText, termSequence } from './encoder.js';
import type { SearchQuery } from './types.js';

/** Bounds that keep a pasted paragraph from costing more than a normal query. */
const MAX_QUERY_CHARS = 256;
const MAX_QUERY_WORDS = 24;
export const MAX_LIMIT = 50;

export interface ParsedQuery {
  /** Distinct encoded terms, in query order. */
  readonly terms: readonly string[];
  /** Encoded terms in order, space-delimited and padded, for phrase matching. */
  readonly phrase: string;
  readonly normalized: string;
}

export function parseQuery(encoder: Encoder, query: SearchQuery): ParsedQuery {
  if (typeof query.query !== 'string' || query.query.trim() === '') {
    throw new InvalidInputError('the search query must not be empty');
  }
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_LIMIT) {
    throw new InvalidInputError(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  }
  const text = boundQuery(query.query);
  const phrase = termSequence(encoder, text);
  return {
    terms: [...new Set(phrase.trim().split(' ').filter(Boolean))],
    phrase,
    normalized: normalizeText(text),
  };
}

function boundQuery(query: string): string {
  const words = query.trim().split(/\s+/).slice(0, MAX_QUERY_WORDS).join(' ');
  // Cut by code points so a surrogate pair is never split.
  return Array.from(words).slice(0, MAX_QUERY_CHARS).join('');
}
