/**
 * Values kept by key within a budget (of characters, say), least recently used out first. A
 * value over a quarter of the budget is not kept: it would push out everything else.
 */
export class Lru<V> {
  readonly #items = new Map<string, V>();
  #total = 0;

  constructor(
    private readonly budget: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  has(key: string): boolean {
    return this.#items.has(key);
  }

  get(key: string): V | undefined {
    const value = this.#items.get(key);
    if (value === undefined) return undefined;
    this.#items.delete(key);
    this.#items.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    const size = this.sizeOf(value);
    if (size > this.budget / 4 || this.#items.has(key)) return;
    this.#items.set(key, value);
    this.#total += size;
    for (const [oldest, kept] of this.#items) {
      if (this.#total <= this.budget) break;
      this.#items.delete(oldest);
      this.#total -= this.sizeOf(kept);
    }
  }
}
