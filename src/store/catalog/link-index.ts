/**
 * Which artifacts link to which, both ways: each artifact's outgoing links as its body states
 * them, and for each artifact the ones linking to it. Set whole per artifact on every change.
 */
export class LinkIndex {
  readonly #from = new Map<string, readonly string[]>();
  readonly #to = new Map<string, Set<string>>();

  /** The artifact now links to `targets` (and to nothing else). */
  set(id: string, targets: readonly string[]): void {
    for (const target of this.#from.get(id) ?? []) {
      const sources = this.#to.get(target);
      if (sources?.delete(id) && sources.size === 0) this.#to.delete(target);
    }
    if (targets.length === 0) {
      this.#from.delete(id);
      return;
    }
    this.#from.set(id, targets);
    for (const target of targets) {
      const sources = this.#to.get(target);
      if (sources) sources.add(id);
      else this.#to.set(target, new Set([id]));
    }
  }

  linksFrom(id: string): readonly string[] {
    return this.#from.get(id) ?? [];
  }

  linksTo(id: string): readonly string[] {
    return [...(this.#to.get(id) ?? [])];
  }
}
