import type { TermHolders } from './body-index.js';
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
   * Each term's postings as a typed array, made when a query first walks them after a change:
   * a common word reaches tens of thousands of slots, and walking a Set costs several times more.
   */
  readonly #packed = new Map<string, Int32Array>();
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
  /** Each slot's number of distinct title terms: read per reached slot, where `#terms` would cost a cache miss. */
  #termCounts: Uint32Array = new Uint32Array(0);
  /** Each slot's normalized title, hashed: a title is only weighed as exact where it equals the query's. */
  #exactKeys: Uint32Array = new Uint32Array(0);
  #vocabulary: string[] | undefined;
  /** Scratch of one query, indexed by slot and zeroed again after it. */
  #covered = new Uint16Array(0);
  #whole = new Uint32Array(0);
  #prefix = new Uint32Array(0);
  /** Scratch: the slots a query reached, in order; preallocated, as growing an array cost more than the walk. */
  #reached = new Int32Array(0);
  /** Scratch: the weighed titles' heap. Each slot enters it once at most, so it never grows. */
  #heapKeys = new Float64Array(0);

  /** Indexes a title by its distinct encoded terms and its normalized text (normalizeText). */
  set(slot: number, terms: SortedTerms, normalized: string): void {
    if (slot >= SLOT_SPACE) throw new RangeError(`title index slot ${slot} is out of range`);
    this.remove(slot);
    this.#terms[slot] = terms;
    if (slot >= this.#termCounts.length) {
      this.#termCounts = grown(this.#termCounts, slot + 1);
      this.#exactKeys = grown(this.#exactKeys, slot + 1);
    }
    this.#termCounts[slot] = terms.length;
    this.#exactKeys[slot] = exactKey(normalized);
    for (const term of terms) {
      let slots = this.#postings.get(term);
      if (!slots) {
        slots = new Set();
        this.#postings.set(term, slots);
        this.#vocabulary = undefined;
      }
      slots.add(slot);
      this.#forgetPacked(term);
    }
  }

  remove(slot: number): void {
    const terms = this.#terms[slot];
    if (!terms) return;
    this.#terms[slot] = undefined;
    for (const term of terms) {
      const slots = this.#postings.get(term)!;
      slots.delete(slot);
      this.#forgetPacked(term);
      if (slots.size === 0) {
        this.#postings.delete(term);
        this.#vocabulary = undefined;
      }
    }
  }

  /**
   * The slots whose title has a term starting with one of the query's, highest bound first, each
   * with its bound (six decimals); equal bounds highest slot first. Titles whose bound is at most
   * `floor()` (what the results already hold) are left out.
   *
   * A title's bound counts what its own body holds of the query, and an exact title only where
   * the title can be the query. Of the title terms the query reaches, the one most titles hold
   * is read in title-length order: ranked as if each body held what some body holds, a title
   * holding no other reached term has a bound that falls with its length only, so each is
   * weighed only when it comes up. The titles of the other terms, usually far fewer, are walked
   * and weighed at once. Weighed titles wait in a heap until no title still to weigh could be
   * above them.
   */
  *byBound(query: TitleQuery, floor: () => number): Generator<{ slot: number; bound: number }> {
    const matched = [...this.#matchedTerms(query.terms)].sort(([a], [b]) => this.#postings.get(b)!.size - this.#postings.get(a)!.size);
    if (matched.length === 0) return;
    const { bound, bodiesAtBest: best } = query;
    const [first, ...others] = matched as [[string, Masks], ...[string, Masks][]];
    const [commonest, { whole, prefix }] = first;
    const otherBits = others.map(([term]) => this.#bitsOf(term));
    const holdsOther = (slot: number) => otherBits.some((bits) => (bits[slot >>> 5]! & (1 << (slot & 31))) !== 0);
    const byLength = this.#slotsByLength(commonest);
    const weigh = this.#weigher(query);
    // The next title of the length-ordered stream, and its first key.
    let next = -1;
    let lengthSlot = -1;
    let lengthKey = -1;
    const advance = () => {
      next += 1;
      while (next < byLength.length && holdsOther(byLength[next]!)) next += 1;
      lengthSlot = next < byLength.length ? byLength[next]! : -1;
      lengthKey = lengthSlot < 0 ? -1 : bound(whole, whole | prefix, 1, this.#termCounts[lengthSlot]!, best.whole, best.any, true) * SLOT_SPACE + lengthSlot;
    };
    const walked = this.#walk(others, first, weigh);
    const weighed = new KeyHeap(this.#heapKeys, walked);
    advance();
    for (;;) {
      const top = weighed.peek();
      if (top >= lengthKey) {
        if (top < 0) return;
        weighed.pop();
        const slot = top % SLOT_SPACE;
        yield { slot, bound: (top - slot) / SLOT_SPACE / BOUND_SCALE };
        continue;
      }
      const least = floor();
      // Past this, no title left can outrank what the results hold.
      if (boundOf(lengthKey) <= least) return;
      const key = weigh(lengthSlot, whole, whole | prefix, 1);
      advance();
      if (boundOf(key) > least) weighed.push(key);
    }
  }

  /** A title's key (bound, slot) from what it matches of the query, what its body holds, and whether it can be exact. */
  #weigher(query: TitleQuery): Weigh {
    let holders: readonly TermHolders[] | undefined;
    const queryKey = exactKey(query.normalized);
    return (slot, titleWhole, titleAny, covered) => {
      holders ??= query.bodyHolders();
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
      const exactPossible = this.#exactKeys[slot] === queryKey;
      return query.bound(titleWhole, titleAny, covered, this.#termCounts[slot]!, bodyWhole, bodyAny, exactPossible) * SLOT_SPACE + slot;
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
   * Keys of the titles holding one of `walked`, put at the start of the heap's scratch (their
   * number is returned), what each matches gathered in scratch arrays first, `also` (a term
   * whose titles are not walked) looked up per title.
   */
  #walk(walked: readonly (readonly [string, Masks])[], also: readonly [string, Masks], weigh: Weigh): number {
    this.#ensureScratch();
    const covered = this.#covered;
    const wholeOf = this.#whole;
    const prefixOf = this.#prefix;
    const reachedSlots = this.#reached;
    let reached = 0;
    for (const [term, { whole, prefix }] of walked) {
      const slots = this.#slotsOf(term);
      for (let i = 0; i < slots.length; i += 1) {
        const slot = slots[i]!;
        const before = covered[slot]!;
        if (before === 0) reachedSlots[reached++] = slot;
        covered[slot] = before + 1;
        wholeOf[slot] = wholeOf[slot]! | whole;
        prefixOf[slot] = prefixOf[slot]! | prefix;
      }
    }
    const [alsoTerm, alsoMasks] = also;
    const alsoBits = this.#bitsOf(alsoTerm);
    const keys = this.#heapKeys;
    for (let i = 0; i < reached; i += 1) {
      const slot = reachedSlots[i]!;
      const inAlso = (alsoBits[slot >>> 5]! & (1 << (slot & 31))) !== 0;
      const whole = wholeOf[slot]! | (inAlso ? alsoMasks.whole : 0);
      const prefix = prefixOf[slot]! | (inAlso ? alsoMasks.prefix : 0);
      keys[i] = weigh(slot, whole, whole | prefix, covered[slot]! + (inAlso ? 1 : 0));
      covered[slot] = 0;
      wholeOf[slot] = 0;
      prefixOf[slot] = 0;
    }
    return reached;
  }

  #slotsOf(term: string): Int32Array {
    let packed = this.#packed.get(term);
    if (!packed) {
      packed = Int32Array.from(this.#postings.get(term)!);
      this.#packed.set(term, packed);
    }
    return packed;
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
      ordered = byTitleLength(this.#postings.get(term)!, this.#termCounts);
      this.#byLength.set(term, ordered);
    }
    return ordered;
  }

  #forgetPacked(term: string): void {
    this.#packed.delete(term);
    this.#bits.delete(term);
    this.#byLength.delete(term);
  }

  #sortedVocabulary(): string[] {
    return (this.#vocabulary ??= [...this.#postings.keys()].sort());
  }

  #ensureScratch(): void {
    const size = this.#terms.length;
    if (this.#covered.length >= size) return;
    const capacity = Math.max(size, this.#covered.length * 2, 1024);
    this.#covered = new Uint16Array(capacity);
    this.#whole = new Uint32Array(capacity);
    this.#prefix = new Uint32Array(capacity);
    this.#reached = new Int32Array(capacity);
    this.#heapKeys = new Float64Array(capacity);
  }
}

/** `slots` by their title's term count, fewest first, then highest slot first (a counting sort: counts are small). */
function byTitleLength(slots: Iterable<number>, termCounts: Uint32Array): Int32Array {
  const descending = Int32Array.from(slots).sort().reverse();
  let longest = 0;
  for (const slot of descending) longest = Math.max(longest, termCounts[slot]!);
  const starts = new Uint32Array(longest + 2);
  for (const slot of descending) starts[termCounts[slot]! + 1]! += 1;
  for (let count = 1; count < starts.length; count += 1) starts[count]! += starts[count - 1]!;
  const ordered = new Int32Array(descending.length);
  for (const slot of descending) ordered[starts[termCounts[slot]!]!++] = slot;
  return ordered;
}

function grown(array: Uint32Array, size: number): Uint32Array {
  const larger = new Uint32Array(Math.max(size, array.length * 2, 1024));
  larger.set(array);
  return larger;
}

/** FNV-1a of a string: equal titles hash equal, so a differing hash rules an exact title out. */
function exactKey(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
