import type { Encoder } from 'flexsearch';
import { WORD } from './analyze-document.js';
import { termSequence } from './encoder.js';

const MAX_HIGHLIGHT_QUERY_CHARS = 256;

/**
 * Where words of `text` match the query as retrieval does (the same encoder; a whole term or
 * a term's prefix), so that people see why a result came up. Half-open [start, end) ranges.
 * Needs only the encoder, not an index: callers run it in their own thread.
 */
export function matchRanges(
  encoder: Encoder,
  encodeWord: (word: string) => readonly string[],
  query: string,
  text: string,
): [number, number][] {
  const terms = termSequence(encoder, query.slice(0, MAX_HIGHLIGHT_QUERY_CHARS)).trim().split(' ').filter(Boolean);
  if (terms.length === 0) return [];
  const ranges: [number, number][] = [];
  for (const word of text.matchAll(WORD)) {
    const encoded = encodeWord(word[0]);
    if (encoded.some((e) => terms.some((t) => e === t || e.startsWith(t)))) ranges.push([word.index, word.index + word[0].length]);
  }
  return ranges;
}
