import { InvalidInputError } from '../errors.js';
import { eachTerm, foldWord, termOfWord, WORD } from './analyzer.js';
import { TitleIndex } from './title-index.js';
import type { SearchQuery } from './types.js';

/** Longer is refused, not cut: a pasted document is not a question. */
export const MAX_QUERY_CHARS = 10_000;
export const MAX_LIMIT = 50;
/** The last word is also looked up as the start of longer words ("notif", "subscr") from this many letters on. */
const MIN_PREFIX_CHARS = 3;

export interface ParsedQuery {
  /** Distinct terms (folded, stemmed, stopwords left out) in query order, each with how often the query holds it. */
  readonly terms: ReadonlyMap<string, number>;
  /** Every term in order, repeats kept: what a title or alias the query names would be (see title-index.ts). */
  readonly titleKey: string;
  /**
   * The last word, folded, when the query ends inside it: someone may still be typing it, so
   * longer words it starts match too. Undefined when the query ends with a space or punctuation.
   */
  readonly prefix?: string;
  /** The term of the last word, which prefix matches are grouped with; null for a stopword. */
  readonly prefixTerm?: string | null;
}

export function parseQuery(query: SearchQuery): ParsedQuery {
  if (typeof query.query !== 'string' || query.query.trim() === '') {
    throw new InvalidInputError('the search query must not be empty');
  }
  if (query.query.length > MAX_QUERY_CHARS) {
    throw new InvalidInputError(
      `the search query is ${query.query.length} characters long; at most ${MAX_QUERY_CHARS} are taken`,
    );
  }
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_LIMIT) {
    throw new InvalidInputError(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  }
  const terms = new Map<string, number>();
  const sequence: string[] = [];
  eachTerm(query.query, (term) => {
    terms.set(term, (terms.get(term) ?? 0) + 1);
    sequence.push(term);
  });
  const lastWord = [...query.query.matchAll(WORD)].at(-1);
  const endsInWord = lastWord !== undefined && lastWord.index + lastWord[0].length === query.query.length;
  const prefix = endsInWord ? foldWord(lastWord[0]) : undefined;
  return {
    terms,
    titleKey: TitleIndex.keyOf(sequence),
    ...(prefix !== undefined && prefix.length >= MIN_PREFIX_CHARS
      ? { prefix, prefixTerm: termOfWord(lastWord![0]) }
      : {}),
  };
}
