import { Index, type Encoder } from 'flexsearch';
import type { TermMatch } from './sorted-terms.js';
import { Vocabulary } from './vocabulary.js';

/** A term's postings as FlexSearch 0.8 keeps them: ids by score bucket, best first, each in the order they were added. */
type Postings = (number[] | undefined)[];

/**
 * What FlexSearch 0.8 keeps an index's postings in, term by term. It is not in the typings; the
 * unit tests of prefix search fail if a later version keeps them elsewhere.
 */
interface PostingsOwner {
  readonly map: Map<string, Postings>;
}

/** FlexSearch's score buckets (its default resolution). */
const RESOLUTION = 9;

/** Never a term: the encoder splits on everything but letters and digits. */
const PREFIX_MARK = '*';

/**
 * What is kept of resolved query terms between writes (a write drops it all). A short prefix
 * can start words in nearly every body, so merged postings are bounded by the ids they hold:
 * at most about 32 MB. A bound of 1,000,000 ids was too small for 100 prefix queries over
 * 100,000 bodies (the search bench's prefix set): they merged again on every round, and a
 * search took 6.2 ms on average instead of 2.3.
 */
const MAX_RESOLVED_TERMS = 10_000;
const MAX_MERGED_IDS = 4_000_000;

/**
 * Terms whose holders (bitsets by slot, 2 x 12.5 KB each at 100,000 documents) are kept between
 * writes: about 25 MB at most there.
 */
const MAX_HOLDER_TERMS = 1_000;

/** The bodies holding a term whole, and holding it or a longer word it starts: bit `slot % 32` of word `slot >>> 5`. */
export interface TermHolders {
  readonly whole: Uint32Array;
  readonly any: Uint32Array;
}

/** A query term as the body index answers it: no body holds it, one word does, or several (their postings merged). */
type ResolvedTerm = { readonly kind: 'none' } | { readonly kind: 'word'; readonly word: string } | { readonly kind: 'prefix'; readonly postings: Postings };
const NONE: ResolvedTerm = { kind: 'none' };

/**
 * Bodies are indexed already encoded (see OrgSearchIndex), as their distinct terms in text
 * order: FlexSearch's encoder is then the identity, and a query, given as encoded terms joined
 * by spaces, is only split. FlexSearch's own encoder, with every transformation off, still split
 * each body again and deduplicated it through an object used as a dictionary: a fifth of the
 * cost of indexing a body. FlexSearch takes any object with `encode` (index.js) and hands it
 * the content as given (add.js, search.js: "do not force a string as input").
 */
const encodedInput = {
  encode: (input: string | readonly string[]): readonly string[] => (typeof input === 'string' ? distinct(input.split(' ').filter((term) => term !== '')) : input),
};

/** The terms once each, where each first occurs: how FlexSearch numbers a body's terms for its scores. */
const distinct = (terms: readonly string[]): string[] => [...new Set(terms)];

/**
 * The bodies of an organization's documents in FlexSearch, with prefix search: a query term also
 * finds the longer words it starts ("notif" -> "notifications").
 *
 * FlexSearch's own prefix mode (`tokenize: 'forward'`) indexes every prefix of every word, which
 * made indexing bodies about two and a half times as costly as whole words; at a cold start that build is what
 * the first search waits for. Here FlexSearch indexes whole terms (`strict`), and a query term
 * that starts several known terms is given, for that search, the postings the prefix mode would
 * have held: the union of theirs, each body at the best score of the words it holds. Results are
 * then FlexSearch's own, one prefix's postings merged once until the next write.
 */
export class BodyIndex {
  readonly #flex = new Index({ encoder: encodedInput as unknown as Encoder, tokenize: 'strict', fastupdate: false, resolution: RESOLUTION });
  readonly #postings = (this.#flex as unknown as PostingsOwner).map;
  readonly #vocabulary = new Vocabulary();
  readonly #resolved = new Map<string, ResolvedTerm>();
  #mergedIds = 0;
  readonly #holders = new Map<string, TermHolders>();

  /** Indexes a body given as its distinct encoded terms in the order they first occur; `known` when the slot holds one already. */
  set(slot: number, held: readonly string[], known: boolean): void {
    for (const term of held) this.#vocabulary.add(term);
    this.#forgetResolved();
    // An empty body is not added, as FlexSearch treats empty text.
    const content = (held.length > 0 ? held : '') as unknown as string;
    if (known) this.#flex.update(slot, content);
    else this.#flex.add(slot, content);
  }

  remove(slot: number): void {
    this.#forgetResolved();
    this.#flex.remove(slot);
  }

  /** Whether some body holds a term starting with `term`. */
  mayHold(term: string): boolean {
    return this.#resolve(term).kind !== 'none';
  }

  /**
   * The best a body can match `term` with: some body has held it whole, or only words it starts.
   * Never less than any body matches it; a term no body holds any more may still count.
   */
  bestMatch(term: string): TermMatch {
    return this.#vocabulary.match(term);
  }

  /**
   * Which bodies hold `term`, for slots below `slotCount`: made from the postings once, kept
   * until the next write.
   */
  holders(term: string, slotCount: number): TermHolders {
    let held = this.#holders.get(term);
    if (held) return held;
    held = { whole: new Uint32Array((slotCount + 31) >>> 5), any: new Uint32Array((slotCount + 31) >>> 5) };
    for (const word of this.#vocabulary.startingWith(term)) {
      for (const bucket of this.#postings.get(word) ?? []) {
        for (const slot of bucket ?? []) {
          const bit = 1 << (slot & 31);
          held.any[slot >>> 5]! |= bit;
          if (word === term) held.whole[slot >>> 5]! |= bit;
        }
      }
    }
    if (this.#holders.size >= MAX_HOLDER_TERMS) this.#holders.clear();
    this.#holders.set(term, held);
    return held;
  }

  /**
   * Bodies holding the query's terms (as prefixes), best first by FlexSearch's order, at most
   * `limit`; bodies holding only some of them come after those holding all.
   */
  candidates(terms: readonly string[], limit: number): { ids: number[]; truncated: boolean } {
    const merged: string[] = [];
    const queried: string[] = [];
    for (const term of terms) {
      const resolved = this.#resolve(term);
      if (resolved.kind === 'word') queried.push(resolved.word);
      if (resolved.kind !== 'prefix') continue;
      const key = term + PREFIX_MARK;
      // Shown to FlexSearch only for the search below, which runs without a turn in between.
      this.#postings.set(key, resolved.postings);
      merged.push(key);
      queried.push(key);
    }
    if (queried.length === 0) return { ids: [], truncated: false };
    try {
      const ids = this.#flex.search(queried.join(' '), { limit, suggest: true }) as number[];
      return { ids, truncated: ids.length >= limit };
    } finally {
      for (const key of merged) this.#postings.delete(key);
    }
  }

  #resolve(term: string): ResolvedTerm {
    let resolved = this.#resolved.get(term);
    if (resolved) return resolved;
    const held = this.#vocabulary.startingWith(term).filter((known) => this.#postings.has(known));
    resolved = held.length === 0 ? NONE : held.length === 1 ? { kind: 'word', word: held[0]! } : { kind: 'prefix', postings: prefixPostings(this.#postings, held) };
    const ids = resolved.kind === 'prefix' ? resolved.postings.reduce((sum, bucket) => sum + (bucket?.length ?? 0), 0) : 0;
    if (this.#resolved.size >= MAX_RESOLVED_TERMS || this.#mergedIds + ids > MAX_MERGED_IDS) this.#forgetResolved();
    this.#resolved.set(term, resolved);
    this.#mergedIds += ids;
    return resolved;
  }

  #forgetResolved(): void {
    this.#resolved.clear();
    this.#mergedIds = 0;
    this.#holders.clear();
  }

  /** FlexSearch's export, chunk by chunk (see OrgSearchIndex.snapshot), and the terms bodies hold. */
  async export(chunk: (key: string, data: string) => Promise<void>): Promise<string[]> {
    await this.#flex.export(chunk);
    return this.#vocabulary.all().filter((term) => this.#postings.has(term));
  }

  /** An index restored from an export and its terms. */
  static restore(flex: readonly (readonly [key: string, data: string])[], terms: readonly string[]): BodyIndex {
    const index = new BodyIndex();
    for (const [key, data] of flex) index.#flex.import(key, data);
    for (const term of terms) index.#vocabulary.add(term);
    return index;
  }
}

/** The postings prefix mode would hold for a prefix of the `held` words: each body once, in the best bucket of its words. */
function prefixPostings(postingsOf: ReadonlyMap<string, Postings>, held: readonly string[]): Postings {
  const postings: Postings = [];
  const placed = new Set<number>();
  for (let bucket = 0; bucket < RESOLUTION; bucket++) {
    const ids: number[] = [];
    for (const term of held) {
      for (const id of postingsOf.get(term)?.[bucket] ?? []) {
        if (placed.has(id)) continue;
        placed.add(id);
        ids.push(id);
      }
    }
    // Ids go in as slots were made, the order in which prefix mode would have added them.
    if (ids.length > 0) postings[bucket] = ids.sort((a, b) => a - b);
  }
  return postings;
}
