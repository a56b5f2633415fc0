/**
 * The documents by their whole title, analyzed as every text is (folded, stemmed, stopwords
 * out) and in order: the exact-match subfield of a title, as Elasticsearch keeps a title's
 * normalized keyword beside its analyzed text, so that a query that is a title finds that
 * document whatever else holds its words. "File system", "file-systems" and "FILE SYSTEM" are
 * one key.
 */
export class TitleIndex {
  readonly #slots = new Map<string, number[]>();
  readonly #keys = new Map<number, string>();

  /** The key of a text's terms; empty (never matched) when it has none. */
  static keyOf(terms: readonly string[]): string {
    return terms.join(' ');
  }

  set(slot: number, titleTerms: readonly string[]): void {
    this.remove(slot);
    const key = TitleIndex.keyOf(titleTerms);
    if (key === '') return;
    this.#keys.set(slot, key);
    const slots = this.#slots.get(key);
    if (slots) slots.push(slot);
    else this.#slots.set(key, [slot]);
  }

  remove(slot: number): void {
    const key = this.#keys.get(slot);
    if (key === undefined) return;
    this.#keys.delete(slot);
    const rest = this.#slots.get(key)!.filter((each) => each !== slot);
    if (rest.length > 0) this.#slots.set(key, rest);
    else this.#slots.delete(key);
  }

  /** The documents whose whole title is `key`. */
  holding(key: string): readonly number[] {
    return this.#slots.get(key) ?? [];
  }
}
