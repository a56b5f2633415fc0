/**
 * The `limit` smallest items under `compare` seen so far, in order, without sorting all of
 * them: most candidates lose to the current worst kept item after one comparison.
 */
export class TopItems<T> {
  readonly #kept: T[] = [];

  constructor(
    private readonly limit: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  add(item: T): void {
    const kept = this.#kept;
    if (kept.length === this.limit && this.compare(item, kept[this.limit - 1]!) >= 0) return;
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.compare(kept[mid]!, item) <= 0) low = mid + 1;
      else high = mid;
    }
    kept.splice(low, 0, item);
    if (kept.length > this.limit) kept.pop();
  }

  /** The last item kept once `limit` are; undefined before. */
  get worst(): T | undefined {
    return this.#kept.length === this.limit ? this.#kept[this.limit - 1] : undefined;
  }

  get items(): readonly T[] {
    return this.#kept;
  }
}

export function selectTop<T>(items: Iterable<T>, limit: number, compare: (a: T, b: T) => number): T[] {
  const top = new TopItems(limit, compare);
  for (const item of items) top.add(item);
  return [...top.items];
}
