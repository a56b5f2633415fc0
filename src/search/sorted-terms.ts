/**
 * Distinct encoded terms in code-unit order. A query term is then one binary search away from
 * both a whole-term match and the first term it is a prefix of.
 */
export type SortedTerms = readonly string[];

export const sortedTerms = (terms: Iterable<string>): string[] => [...new Set(terms)].sort();

/** Index of the first term >= `term`. */
export function lowerBound(sorted: SortedTerms, term: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < term) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Where the terms `prefix` starts (itself included) lie in `sorted`: indexes `from` up to, not including, `to`. */
export function prefixRange(sorted: SortedTerms, prefix: string): { from: number; to: number } {
  const from = lowerBound(sorted, prefix);
  let to = from;
  while (to < sorted.length && sorted[to]!.startsWith(prefix)) to += 1;
  return { from, to };
}

export type TermMatch = 'whole' | 'prefix' | 'none';

export function findTerm(sorted: SortedTerms, term: string): TermMatch {
  const found = sorted[lowerBound(sorted, term)];
  if (found === term) return 'whole';
  return found?.startsWith(term) ? 'prefix' : 'none';
}
