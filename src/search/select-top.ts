/**
 * The `limit` smallest items under `compare`, in order, without sorting all of them: most
 * candidates lose to the current worst kept item after one comparison.
 */
export function selectTop<T>(items: Iterable<T>, limit: number, compare: (a: T, b: T) => number): T[] {
  const kept: T[] = [];
  for (const item of items) {
    if (kept.length === limit && compare(item, kept[limit - 1]!) >= 0) continue;
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compare(kept[mid]!, item) <= 0) low = mid + 1;
      else high = mid;
    }
    kept.splice(low, 0, item);
    if (kept.length > limit) kept.pop();
  }
  return kept;
}
