/**
 * Diffs between two commits of one artifact never change, and large ones are the costliest
 * thing a history page shows: each is computed once and kept, least recently used out first,
 * within a budget of characters.
 */
export class DiffCache {
  readonly #diffs = new Map<string, string>();
  #chars = 0;

  constructor(private readonly budgetChars = 32 * 1024 * 1024) {}

  async get(
    orgId: string,
    artifactId: string,
    from: string,
    to: string,
    compute: () => Promise<string>,
  ): Promise<string> {
    const key = `${orgId}/${artifactId}/${from}..${to}`;
    const cached = this.#diffs.get(key);
    if (cached !== undefined) {
      this.#diffs.delete(key);
      this.#diffs.set(key, cached);
      return cached;
    }
    const diff = await compute();
    if (diff.length <= this.budgetChars / 4) this.#keep(key, diff);
    return diff;
  }

  #keep(key: string, diff: string): void {
    this.#diffs.set(key, diff);
    this.#chars += diff.length;
    for (const [oldest, text] of this.#diffs) {
      if (this.#chars <= this.budgetChars) break;
      this.#diffs.delete(oldest);
      this.#chars -= text.length;
    }
  }
}
