import { BM25F } from './bm25f.js';

/** Occurrences further apart than this many terms are not near. */
const WINDOW = 5;

/**
 * Term proximity after BM25TP (Rasolofo and Savoy, "Term proximity scoring for keyword-based
 * retrieval systems", 2003): each pair of query terms occurring within a few terms of each other
 * adds 1/distance², saturated like a term frequency and weighted by the rarer-weighted of the two.
 * `groups` are the query terms' positions in one document (a prefix's words merged), `idfs` their
 * rarity, in the same order.
 */
export function proximityScore(groups: readonly (readonly number[])[], idfs: readonly number[]): number {
  let score = 0;
  for (let i = 0; i < groups.length; i++) {
    for (let j = i + 1; j < groups.length; j++) {
      const nearness = pairNearness(groups[i]!, groups[j]!);
      if (nearness > 0) score += (Math.min(idfs[i]!, idfs[j]!) * nearness) / (BM25F.k1 + nearness);
    }
  }
  return score;
}

/** Σ 1/d² over occurrences of `a` and `b` (sorted positions) at most WINDOW apart. */
function pairNearness(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  let from = 0;
  for (const at of a) {
    while (from < b.length && b[from]! < at - WINDOW) from += 1;
    for (let k = from; k < b.length && b[k]! <= at + WINDOW; k++) {
      const distance = Math.abs(b[k]! - at);
      if (distance > 0) sum += 1 / (distance * distance);
    }
  }
  return sum;
}
