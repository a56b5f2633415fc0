import type { TermHolders } from './body-index.js';
import { grown } from './grown.js';
import { KeyHeap } from './key-heap.js';
import { termBit, type ScaledBound, type TermMasks } from './match-masks.js';
import { lowerBound, prefixRange, type SortedTerms } from './sorted-terms.js';

/** The query terms a title term is (whole) or that start it (prefix), one bit per query term. */
interface Masks {
  whole: number;
  prefix: number;
}

/** What the title index needs of a query to hand out its titles best bound first. */
export interface TitleQuery {
  readonly terms: readonly string[];
  /** The query as normalizeText gives it: only a title whose own equals it can be exact. */
  readonly normalized: string;
  readonly bound: ScaledBound;
  /** What some body holds of the query at best: a title is first ranked as if its body held that. */
  readonly bodiesAtBest: TermMasks;
  /** Per query term (up to MASK_BITS), the bodies holding it: asked for when a first title is weighed. */
  readonly bodyHolders: () => readonly TermHolders[];
}

/** Slots are packed below the bound in one float64 heap key (2^26 slots, bounds to 1e-6). */
const SLOT_SPACE = 2 ** 26;
const BOUND_SCALE = 1e6;
/** Terms whose bitset (12.5 KB at 100,000 titles) is kept: about 12 MB at most there. */
const MAX_BITSETS = 1_000;

const boundOf = (key: number): number => Math.floor(key / SLOT_SPACE) / BOUND_SCALE;

/** A title's key (bound, slot) from what its title matches of the query (bit masks) and what its body holds. */
type Weigh = (slot: number, titleWhole: number, titleAny: number, covered: number) => number;

/**
 * Titles by term, for ranking's retrieval. Title matches carry most of a score, and which
 * titles rank first (those the query covers most) is not FlexSearch's order: at 100,000
 * artifacts a word can start thousands of titles, and a fixed window of FlexSearch's first
 * ones missed the best. Titles are short, so titles a query reaches are weighed from the
 * posting lists, with what each body holds of the query, and handed out best bound first.
 */
export class TitleIndex {
  readonly #postings = new Map<string, Set<number>>();
  /**
   * Each term's postings in the order a query matching that one title term takes them: fewest
   * title terms first (the bound only falls with a title's length), then highest slot first.
   * Made when first asked for after a change, so such a query walks no postings and builds no heap.
   */
  readonly #byLength = new Map<string, Int32Array>();
  /**
   * Each term's postings as a bitset by slot, made when a query first asks whether titles hold
   * it: one cached read, where a Set of tens of thousands of slots costs a hash probe and a miss.
   */
  readonly #bits = new Map<string, Uint32Array>();
  /** Each slot's distinct title terms, sorted. */
  readonly #terms: (SortedTerms | undefined)[] = [];
  /**
   * Per slot, side by side, its number of distinct title terms (at 2 × slot) and its normalized
   * title hashed (at 2 × slot + 1): read for each reached title, where `#terms` would cost a cache
   * miss, and side by side so that weighing a title costs one miss where two arrays cost two. A
   * title is only weighed as exact where its hash equals the query's.
   */
  #facts: Uint32Array = new Uint32Array(0);
  #vocabulary: string[] | undefined;
  /** Scratch of one query, a bit per slot, zeroed again after it: titles holding one reached term, and two or more. */
  #holdingOne = new Uint32Array(0);
  #holdingTwo = new Uint32Array(0);
  /** Scratch: the weighed titles' heap. Each slot enters it once at most, so it never grows. */
  #heapKeys = new Float64Array(0);

  /** Indexes a title by its distinct encoded terms and its normalized text (normalizeText). */
  set(slot: number, terms: SortedTerms, normalized: string): void {
    if (slot >= SLOT_SPACE) throw new RangeError(`title index slot ${slot} is out of range`);
    this.remove(slot);
    this.#terms[slot] = terms;
    if (2 * slot + 1 >= this.#facts.length) this.#facts = grown(this.#facts, 2 * slot + 2);
    this.#facts[2 * slot] = terms.length;
    this.#facts[2 * slot + 1] = exactKey(normalized);
    for (const term of terms) {
      let slots = this.#postings.get(term);
      if (!slots) {
        slots = new Set();
        this.#postings.set(term, slots);
        this.#vocabulary = undefined;
      }
      slots.add(slot);
      this.#forgetCached(term);
    }
  }

  remove(slot: number): void {
    const terms = this.#terms[slot];
    if (!terms) return;
    this.#terms[slot] = undefined;
    for (const term of terms) {
      const slots = this.#postings.get(term)!;
      slots.delete(slot);
      this.#forgetCached(term);
      if (slots.size === 0) {
        this.#postings.delete(term);
        this.#vocabulary = undefined;
      }
    }
  }

  /**
   * Hands `visit` the slots whose title has a term starting with one of the query's, highest bound
   * first, each with its bound (six decimals), until it returns false; equal bounds highest slot
   * first. Titles whose bound is at most `floor()` (what the results already hold) are left out.
   *
   * A title's bound counts what its own body holds of the query, and an exact title only where
   * the title can be the query. Titles holding two or more of the title terms the query reaches
   * (usually few) are found by and-ing the terms' bitsets, and weighed at once. Ranked as if its
   * body held what some body holds, a title holding one reached term only has a bound that falls
   * with its length only: each term's such titles are read in title-length order, and each is
   * weighed only when it comes up. Weighed titles wait in a heap until no title still to weigh
   * could be above them. (Walking every title of all but the commonest term instead took half
   * of a search at 100,000 artifacts.) Once the results hold more than a title of a stream's
   * length could reach with a body lacking any other query term, the stream passes over the
   * titles whose body lacks one, by bitset, unweighed: "audit log export" weighed 4,372 titles
   * at 100,000 artifacts to keep 169.
   */
  visitByBound(query: TitleQuery, floor: () => number, visit: (slot: number, bound: number) => boolean): void {
    const matched = [...this.#matchedTerms(query.terms)];
    if (matched.length === 0) return;
    const { bound, bodiesAtBest: best } = query;
    let holders: readonly TermHolders[] | undefined;
    const holdersOf = () => (holders ??= query.bodyHolders());
    const weigh = this.#weigher(query, holdersOf);
    this.#ensureScratch();
    const words = (this.#terms.length + 31) >>> 5;
    const holdingTwo = this.#holdingTwo;
    const weighed = new KeyHeap(this.#heapKeys, matched.length > 1 ? this.#weighShared(matched, words, weigh) : 0);
    const streams = matched.map(([term, { whole, prefix }]): LengthStream => {
      const any = whole | prefix;
      const others = best.any & ~any;
      return { slots: this.#slotsByLength(term), whole, any, others, fullBodies: undefined, at: -1, slot: -1, key: -1, termCount: -1, lengthBound: 0, lackingBound: 0 };
    });
    const fullBodies = new Map<number, Uint32Array>();
    const fullBodiesOf = (others: number) => {
      let bits = fullBodies.get(others);
      if (!bits) fullBodies.set(others, (bits = holdingAll(holdersOf(), others, words)));
      return bits;
    };
    // The most (scaled) a title of the stream's length can reach whose body lacks one of the other terms some body holds.
    const lackingBound = (stream: LengthStream) => {
      let most = 0;
      for (let rest = stream.others; rest !== 0; rest &= rest - 1) {
        const bit = rest & -rest;
        most = Math.max(most, bound(stream.whole, stream.any, 1, stream.termCount, best.whole & ~bit, best.any & ~bit, true));
      }
      return most;
    };
    // The stream's next title holding no other reached term, and its first key. Titles come in
    // length order, and its first bounds depend on the length alone: worked out once per length.
    const advance = (stream: LengthStream) => {
      const full = stream.fullBodies;
      const passedOver = (slot: number) => isSet(holdingTwo, slot) || (full !== undefined && !isSet(full, slot));
      let at = stream.at + 1;
      while (at < stream.slots.length && passedOver(stream.slots[at]!)) at += 1;
      stream.at = at;
      stream.slot = at < stream.slots.length ? stream.slots[at]! : -1;
      if (stream.slot < 0) {
        stream.key = -1;
        return;
      }
      const termCount = this.#facts[2 * stream.slot]!;
      if (termCount !== stream.termCount) {
        stream.termCount = termCount;
        stream.lengthBound = bound(stream.whole, stream.any, 1, termCount, best.whole, best.any, true);
        stream.lackingBound = lackingBound(stream);
      }
      stream.key = stream.lengthBound * SLOT_SPACE + stream.slot;
    };
    streams.forEach(advance);
    try {
      for (;;) {
        let next = streams[0]!;
        for (const stream of streams) if (stream.key > next.key) next = stream;
        const top = weighed.peek();
        if (top >= next.key) {
          if (top < 0) return;
          weighed.pop();
          const slot = top % SLOT_SPACE;
          if (!visit(slot, (top - slot) / SLOT_SPACE / BOUND_SCALE)) return;
          continue;
        }
        const least = floor();
        // Past this, no title left can outrank what the results hold.
        if (boundOf(next.key) <= least) return;
        if (next.fullBodies === undefined && next.others !== 0 && next.lackingBound / BOUND_SCALE <= least) {
          next.fullBodies = fullBodiesOf(next.others);
          if (!isSet(next.fullBodies, next.slot)) {
            advance(next);
            continue;
          }
        }
        const key = weigh(next.slot, next.whole, next.any, 1);
        advance(next);
        if (boundOf(key) > least) weighed.push(key);
      }
    } finally {
      holdingTwo.fill(0, 0, words);
    }
  }

  /** A title's key (bound, slot) from what it matches of the query, what its body holds, and whether it can be exact. */
  #weigher(query: TitleQuery, holdersOf: () => readonly TermHolders[]): Weigh {
    const queryKey = exactKey(query.normalized);
    return (slot, titleWhole, titleAny, covered) => {
      const holders = holdersOf();
      const word = slot >>> 5;
      const bit = 1 << (slot & 31);
      let bodyWhole = 0;
      let bodyAny = 0;
      for (let term = 0; term < holders.length; term += 1) {
        const { whole, any } = holders[term]!;
        if ((any[word]! & bit) === 0) continue;
        bodyAny |= 1 << term;
        if ((whole[word]! & bit) !== 0) bodyWhole |= 1 << term;
      }
      const exactPossible = this.#facts[2 * slot + 1] === queryKey;
      return query.bound(titleWhole, titleAny, covered, this.#facts[2 * slot]!, bodyWhole, bodyAny, exactPossible) * SLOT_SPACE + slot;
    };
  }

  /** The title terms the query reaches, each with the query terms it is (whole) or that start it (prefix). */
  #matchedTerms(queryTerms: readonly string[]): Map<string, Masks> {
    const vocabulary = this.#sortedVocabulary();
    const matched = new Map<string, Masks>();
    queryTerms.forEach((queryTerm, index) => {
      const bit = termBit(index);
      const { from, to } = prefixRange(vocabulary, queryTerm);
      for (let at = from; at < to; at += 1) {
        const term = vocabulary[at]!;
        const masks = matched.get(term) ?? { whole: 0, prefix: 0 };
        if (term === queryTerm) masks.whole |= bit;
        else masks.prefix |= bit;
        matched.set(term, masks);
      }
    });
    return matched;
  }

  /**
   * Keys of the titles holding two or more of the `matched` terms, put at the start of the heap's
   * scratch (their number is returned), each weighed with all it holds; they are left marked in
   * `#holdingTwo`, so that the length-ordered streams pass them over.
   */
  #weighShared(matched: readonly (readonly [string, Masks])[], words: number, weigh: Weigh): number {
    const bits = matched.map(([term]) => this.#bitsOf(term));
    const holdingOne = this.#holdingOne;
    const holdingTwo = this.#holdingTwo;
    for (const termBits of bits) {
      // A bitset made before the index grew is shorter: its term is in none of the newer slots.
      const length = Math.min(words, termBits.length);
      for (let word = 0; word < length; word += 1) {
        const held = termBits[word]!;
        holdingTwo[word]! |= holdingOne[word]! & held;
        holdingOne[word]! |= held;
      }
    }
    holdingOne.fill(0, 0, words);
    const keys = this.#heapKeys;
    let count = 0;
    for (let word = 0; word < words; word += 1) {
      for (let rest = holdingTwo[word]!; rest !== 0; rest &= rest - 1) {
        const bit = rest & -rest;
        const slot = (word << 5) | (31 - Math.clz32(bit));
        let whole = 0;
        let prefix = 0;
        let covered = 0;
        for (let term = 0; term < bits.length; term += 1) {
          if ((bits[term]![word]! & bit) === 0) continue;
          const masks = matched[term]![1];
          whole |= masks.whole;
          prefix |= masks.prefix;
          covered += 1;
        }
        keys[count++] = weigh(slot, whole, whole | prefix, covered);
      }
    }
    return count;
  }

  #bitsOf(term: string): Uint32Array {
    let bits = this.#bits.get(term);
    if (!bits) {
      bits = new Uint32Array((this.#terms.length + 31) >>> 5);
      for (const slot of this.#postings.get(term)!) bits[slot >>> 5]! |= 1 << (slot & 31);
      if (this.#bits.size >= MAX_BITSETS) this.#bits.clear();
      this.#bits.set(term, bits);
    }
    return bits;
  }

  #slotsByLength(term: string): Int32Array {
    let ordered = this.#byLength.get(term);
    if (!ordered) {
      ordered = byTitleLength(this.#postings.get(term)!, this.#facts);
      this.#byLength.set(term, ordered);
    }
    return ordered;
  }

  #forgetCached(term: string): void {
    this.#bits.delete(term);
    this.#byLength.delete(term);
  }

  #sortedVocabulary(): string[] {
    return (this.#vocabulary ??= [...this.#postings.keys()].sort());
  }

  #ensureScratch(): void {
    const size = this.#terms.length;
    if (this.#heapKeys.length >= size) return;
    const capacity = Math.max(size, this.#heapKeys.length * 2, 1024);
    this.#holdingOne = new Uint32Array((capacity + 31) >>> 5);
    this.#holdingTwo = new Uint32Array((capacity + 31) >>> 5);
    this.#heapKeys = new Float64Array(capacity);
  }
}

/** One reached term's titles that hold no other reached term, in title-length order, and where a query stands in them. */
interface LengthStream {
  readonly slots: Int32Array;
  readonly whole: number;
  readonly any: number;
  /** The query terms some body holds that this stream's titles do not: a title's body may lack some. */
  readonly others: number;
  /** Once set, the titles whose body holds all of `others`: the only ones of the stream still weighed. */
  fullBodies: Uint32Array | undefined;
  at: number;
  slot: number;
  /** `slot` packed with its bound as if its body held what some body holds and it could be exact; -1 past the end. */
  key: number;
  /** The title length `lengthBound` and `lackingBound` were worked out for, and those bounds (scaled). */
  termCount: number;
  lengthBound: number;
  lackingBound: number;
}

const isSet = (bits: Uint32Array, slot: number): boolean => (bits[slot >>> 5]! & (1 << (slot & 31))) !== 0;

/** The slots whose body holds every query term in `terms` (one bit per term), whole or as the start of a word. */
function holdingAll(holders: readonly TermHolders[], terms: number, words: number): Uint32Array {
  const bits = new Uint32Array(words).fill(0xffffffff);
  for (let rest = terms; rest !== 0; rest &= rest - 1) {
    // A term's holders made before the index grew are shorter: it is in none of the newer bodies.
    const held = holders[31 - Math.clz32(rest & -rest)]!.any;
    for (let word = 0; word < words; word += 1) bits[word]! &= held[word] ?? 0;
  }
  return bits;
}

/** `slots` by their title's term count (in `facts`), fewest first, then highest slot first (a counting sort: counts are small). */
function byTitleLength(slots: Iterable<number>, facts: Uint32Array): Int32Array {
  const descending = Int32Array.from(slots).sort().reverse();
  let longest = 0;
  for (const slot of descending) longest = Math.max(longest, facts[2 * slot]!);
  const starts = new Uint32Array(longest + 2);
  for (const slot of descending) starts[facts[2 * slot]! + 1]! += 1;
  for (let count = 1; count < starts.length; count += 1) starts[count]! += starts[count - 1]!;
  const ordered = new Int32Array(descending.length);
  for (const slot of descending) ordered[starts[facts[2 * slot]!]!++] = slot;
  return ordered;
}

/** FNV-1a of a string: equal titles hash equal, so a differing hash rules an exact title out. */
function exactKey(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
