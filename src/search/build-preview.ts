import type { AnalyzedDocument } from './analyze-document.js';

/** A word of the query, and the number of the query term it belongs to (each word to one term). */
export interface QueryWord {
  readonly word: string;
  readonly query: number;
}

/** The query's words, each with the term it belongs to (its index among `terms`). */
export function queryWordsOf(terms: readonly { readonly words: readonly { readonly word: string }[] }[]): QueryWord[] {
  // A word in two terms' groups (a prefix's longer words may hold another term) counts for the later one.
  const owner = new Map<string, number>();
  terms.forEach((term, index) => {
    for (const { word } of term.words) owner.set(word, index);
  });
  return [...owner].map(([word, query]) => ({ word, query }));
}

const PREVIEW_CHARS = 160;
/** Context kept before the passage, so the snippet does not open on the matched word. */
const LEAD_CHARS = 40;
/** The passage is the run of this many body terms holding the most distinct query terms. */
const PASSAGE_TERMS = 16;
const ELLIPSIS = '…';

/**
 * About 160 characters of the body's plain text around the passage that matches the query
 * best (most distinct query terms close together, the earliest of equals), cut on word
 * boundaries, with ellipses where text was left out. Without a body match (title only) the
 * preview is the body's start.
 */
export function buildPreview(candidate: AnalyzedDocument, queryWords: readonly QueryWord[]): string {
  const text = candidate.plainBody;
  if (text.length <= PREVIEW_CHARS) return text;
  const match = passageOffset(candidate, queryWords);
  const start = match > LEAD_CHARS ? wordStartAfter(text, match - LEAD_CHARS, match) : 0;
  let end = Math.min(text.length, start + PREVIEW_CHARS);
  if (end < text.length) end = wordEndBefore(text, end, Math.max(match + 1, start + 1));
  const snippet = text.slice(start, end).trim();
  return `${start > 0 ? ELLIPSIS : ''}${snippet}${end < text.length ? ELLIPSIS : ''}`;
}

/**
 * The body offset where the best passage starts; -1 when the body holds no query term. Looked up
 * by the query's words, not by walking every term of the document (hundreds, for ten hits). A
 * hit is one number, its position times the number of query terms plus its term: a twenty-word
 * question finds hundreds of hits in ten documents, and an object each was a tenth of the
 * question's time in the index's thread.
 */
function passageOffset({ positions, offsets }: AnalyzedDocument, queryWords: readonly QueryWord[]): number {
  const terms = queryWords.reduce((most, { query }) => Math.max(most, query + 1), 0);
  const sorted: number[] = [];
  for (const { word, query } of queryWords) {
    for (const position of positions.get(word) ?? [])
      if (offsets[position]! >= 0) sorted.push(position * terms + query);
  }
  const count = sorted.length;
  if (count === 0) return -1;
  sorted.sort((a, b) => a - b);
  const positionOf = (hit: number) => Math.floor(hit / terms);
  // A window sliding over the hits, counting each query term it holds.
  const held: number[] = new Array<number>(terms).fill(0);
  let distinct = 0;
  let best = positionOf(sorted[0]!);
  let bestCount = 0;
  for (let start = 0, end = 0; start < count; start++) {
    const from = positionOf(sorted[start]!);
    for (; end < count && positionOf(sorted[end]!) < from + PASSAGE_TERMS; end++) {
      if (held[sorted[end]! % terms]!++ === 0) distinct += 1;
    }
    if (distinct > bestCount) {
      bestCount = distinct;
      best = from;
    }
    if (--held[sorted[start]! % terms]! === 0) distinct -= 1;
  }
  return offsets[best]!;
}

/** The first word start at or after `from`, but never past `limit` (the match itself). */
function wordStartAfter(text: string, from: number, limit: number): number {
  const space = text.indexOf(' ', from);
  return space === -1 || space + 1 > limit ? limit : space + 1;
}

/** The last word end at or before `to`, but never before `floor`. */
function wordEndBefore(text: string, to: number, floor: number): number {
  if (text[to] === ' ') return to;
  const space = text.lastIndexOf(' ', to);
  return space < floor ? to : space;
}
