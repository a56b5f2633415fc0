import { findTerm, prefixRange, type TermMatch } from './sorted-terms.js';

/**
 * Every term the bodies of an index have held, sorted for prefix lookups. Terms are only added:
 * one no body holds any more finds nothing when looked up, which a caller checks. New terms wait
 * in a list and are merged in when the next lookup needs them, so a build of thousands of
 * documents sorts once, and a write adding a word costs a merge, not a sort.
 */
export class Vocabulary {
  readonly #known = new Set<string>();
  #sorted: string[] = [];
  #pending: string[] = [];

  add(term: string): void {
    if (this.#known.has(term)) return;
    this.#known.add(term);
    this.#pending.push(term);
  }

  /** The terms starting with `prefix` (the prefix itself included), in order. */
  startingWith(prefix: string): string[] {
    const sorted = this.#merged();
    const { from, to } = prefixRange(sorted, prefix);
    return sorted.slice(from, to);
  }

  /** Whether `term` is a known term ('whole'), only starts known ones ('prefix'), or neither. */
  match(term: string): TermMatch {
    return findTerm(this.#merged(), term);
  }

  /** Every term, sorted. */
  all(): readonly string[] {
    return this.#merged();
  }

  #merged(): string[] {
    if (this.#pending.length === 0) return this.#sorted;
    const added = this.#pending.sort();
    const merged: string[] = new Array(this.#sorted.length + added.length);
    let i = 0;
    let j = 0;
    for (let k = 0; k < merged.length; k++)
      merged[k] =
        j >= added.length || (i < this.#sorted.length && this.#sorted[i]! < added[j]!)
          ? this.#sorted[i++]!
          : added[j++]!;
    this.#sorted = merged;
    this.#pending = [];
    return merged;
  }
}
