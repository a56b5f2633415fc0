/**
 * Which artifacts link to which, both ways: each artifact's outgoing links as its body states
 * them (artifact ids, and wiki keys of the titles it links to), and for each target the ones
 * linking to it; and which artifacts bear each title, so that a wiki link resolves when read.
 * Set whole per artifact on every change.
 */
export class LinkIndex {
  readonly #from = new Map<string, readonly string[]>();
  readonly #to = new Map<string, Set<string>>();
  readonly #titleOf = new Map<string, string>();
  readonly #titled = new Map<string, Set<string>>();

  /** The artifact now links to `targets` (and to nothing else), and bears the title key `title` (none: it is gone). */
  set(id: string, targets: readonly string[], title?: string): void {
    for (const target of this.#from.get(id) ?? []) removeFrom(this.#to, target, id);
    if (targets.length === 0) this.#from.delete(id);
    else {
      this.#from.set(id, targets);
      for (const target of targets) addTo(this.#to, target, id);
    }
    const formerTitle = this.#titleOf.get(id);
    if (formerTitle !== undefined) removeFrom(this.#titled, formerTitle, id);
    if (title === undefined) this.#titleOf.delete(id);
    else {
      this.#titleOf.set(id, title);
      addTo(this.#titled, title, id);
    }
  }

  linksFrom(id: string): readonly string[] {
    return this.#from.get(id) ?? [];
  }

  linksTo(target: string): readonly string[] {
    return [...(this.#to.get(target) ?? [])];
  }

  /** The artifacts whose title has this key. */
  titled(title: string): readonly string[] {
    return [...(this.#titled.get(title) ?? [])];
  }
}

function addTo(map: Map<string, Set<string>>, key: string, id: string): void {
  const ids = map.get(key);
  if (ids) ids.add(id);
  else map.set(key, new Set([id]));
}

function removeFrom(map: Map<string, Set<string>>, key: string, id: string): void {
  const ids = map.get(key);
  if (ids?.delete(id) && ids.size === 0) map.delete(key);
}
