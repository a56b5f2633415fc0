import { eachTerm, foldWord, termOfWord, WORD } from './analyzer.js';

/** Highlighting looks at the start of a query only: it is shown beside results, not searched. */
const MAX_HIGHLIGHT_QUERY_CHARS = 1_000;
const MIN_PREFIX_CHARS = 3;

/**
 * Where words of `text` match the query as retrieval does (the same terms, and the last word as
 * the start of longer ones), so that people see why a result came up. Half-open [start, end)
 * ranges. Needs no index: callers run it in their own thread.
 */
export function matchRanges(query: string, text: string): [number, number][] {
  const shown = query.slice(0, MAX_HIGHLIGHT_QUERY_CHARS);
  const terms = new Set<string>();
  eachTerm(shown, (term) => terms.add(term));
  const last = [...shown.matchAll(WORD)].at(-1);
  const prefix =
    last && last.index + last[0].length === shown.length && last[0].length >= MIN_PREFIX_CHARS
      ? foldWord(last[0])
      : undefined;
  if (terms.size === 0 && prefix === undefined) return [];
  const ranges: [number, number][] = [];
  for (const word of text.matchAll(WORD)) {
    const term = termOfWord(word[0]);
    if (term !== null && (terms.has(term) || (prefix !== undefined && term.startsWith(prefix))))
      ranges.push([word.index, word.index + word[0].length]);
  }
  return ranges;
}
