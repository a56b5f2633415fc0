/**
 * The documents by each of their names, their whole title and each alias, analyzed as every
 * text is (folded, stemmed, stopwords out) and in order: the exact-match subfield of a title, as
 * Elasticsearch keeps a title's normalized keyword beside its analyzed text, so that a query that
 * is a document's name finds that document whatever else holds its words. "File system",
 * "file-systems" and "FILE SYSTEM" are one key.
 */
export class TitleIndex {
  readonly #slots = new Map<string, number[]>();
  /** Each slot's keys: a string for a document named by its title alone, as most are; an array only for one with aliases. */
  readonly #keys = new Map<number, string | readonly string[]>();

  /** The key of a text's terms; empty (never matched) when it has none. */
  static keyOf(terms: readonly string[]): string {
    return terms.join(' ');
  }

  /** The slot's names, each as its analyzed terms (its title, then its aliases), replacing those it had. */
  set(slot: number, names: readonly (readonly string[])[]): void {
    this.remove(slot);
    const keys: string[] = [];
    for (const terms of names) {
      const key = TitleIndex.keyOf(terms);
      // An alias that analyzes as the title, or as another alias, must not list the slot twice under one key.
      if (key !== '' && !keys.includes(key)) keys.push(key);
    }
    if (keys.length === 0) return;
    this.#keys.set(slot, keys.length === 1 ? keys[0]! : keys);
    for (const key of keys) {
      const slots = this.#slots.get(key);
      if (slots) slots.push(slot);
      else this.#slots.set(key, [slot]);
    }
  }

  remove(slot: number): void {
    const keys = this.#keys.get(slot);
    if (keys === undefined) return;
    this.#keys.delete(slot);
    if (typeof keys === 'string') this.#drop(keys, slot);
    else for (const each of keys) this.#drop(each, slot);
  }

  /** The documents one of whose names is `key`. */
  holding(key: string): readonly number[] {
    return this.#slots.get(key) ?? [];
  }

  #drop(key: string, slot: number): void {
    const rest = this.#slots.get(key)!.filter((each) => each !== slot);
    if (rest.length > 0) this.#slots.set(key, rest);
    else this.#slots.delete(key);
  }
}
