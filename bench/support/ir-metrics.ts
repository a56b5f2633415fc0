/**
 * Ranking quality with binary relevance, by the standard definitions (as trec_eval computes
 * them). `ranked` is an engine's result ids, best first; `relevant` the ids judged relevant to
 * the query, never empty (only judged queries are measured). An id ranked twice counts once,
 * at its first rank.
 */

/** The ids of `ranked` down to rank `k`, each with whether it is a new relevant one. */
function hitsAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): boolean[] {
  if (relevant.size === 0) throw new Error('a query without relevant documents cannot be measured');
  const seen = new Set<string>();
  return ranked.slice(0, k).map((id) => {
    const hit = relevant.has(id) && !seen.has(id);
    seen.add(id);
    return hit;
  });
}

const discount = (rank: number): number => 1 / Math.log2(rank + 1);

/**
 * nDCG@k: DCG (gain 1 for a relevant document at rank r, discounted by 1/log2(r+1)) over the
 * DCG of an ideal ranking, every relevant document first (at most k of them).
 */
export function ndcgAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  const dcg = hitsAt(ranked, relevant, k).reduce((sum, hit, i) => (hit ? sum + discount(i + 1) : sum), 0);
  let ideal = 0;
  for (let rank = 1; rank <= Math.min(relevant.size, k); rank++) ideal += discount(rank);
  return dcg / ideal;
}

/**
 * AP@k: the precision at the rank of each relevant document found in the top k, summed and
 * divided by the number of relevant documents (found or not), as trec_eval's map over a
 * ranking cut at k. Averaged over queries it is MAP@k.
 */
export function averagePrecisionAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  let found = 0;
  let sum = 0;
  hitsAt(ranked, relevant, k).forEach((hit, i) => {
    if (!hit) return;
    found += 1;
    sum += found / (i + 1);
  });
  return sum / relevant.size;
}

/** Recall@k: the share of the relevant documents found in the top k. */
export function recallAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  return hitsAt(ranked, relevant, k).filter(Boolean).length / relevant.size;
}

export const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
