import { lowerBound, prefixRange, type SortedTerms } from './sorted-terms.js';

/** The query terms a title term is (whole) or that start it (prefix), one bit per query term. */
interface Masks {
  whole: number;
  prefix: number;
}

/** What a title matches of a query: the inputs of the title's share of the score. */
export interface TitleMatch {
  /** Per query term, 1 for a whole title term, 0.6 for the start of one; summed. */
  readonly strength: number;
  /** The share of the title's terms that start with a query term. */
  readonly focus: number;
}

/** Slots are packed below the bound in one float64 heap key (2^26 slots, bounds to 1e-6). */
const SLOT_SPACE = 2 ** 26;
const BOUND_SCALE = 1e6;
/** Query terms tracked one bit each; a longer query gets no pruning from its title strength. */
const MASK_BITS = 31;
const PREFIX_STRENGTH = 0.6;

/**
 * Titles by term, for ranking's retrieval. Title matches carry most of a score, and which
 * titles rank first (those the query covers most) is not FlexSearch's order: at 100,000
 * artifacts a word can start thousands of titles, and a fixed window of FlexSearch's first
 * ones missed the best. Titles are short, so every title a query reaches is weighed exactly,
 * from the posting lists alone, and handed out best bound first.
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
  /** Each slot's distinct title terms, sorted. */
  readonly #terms: (SortedTerms | undefined)[] = [];
  /** Each slot's number of distinct title terms: read per reached slot, where `#terms` would cost a cache miss. */
  #termCounts: Uint32Array = new Uint32Array(0);
  #vocabulary: string[] | undefined;
  /** Scratch of one query, indexed by slot and zeroed again after it. */
  #covered = new Uint16Array(0);
  #whole = new Uint32Array(0);
  #prefix = new Uint32Array(0);
  /** Scratch: the slots a query reached, in order; preallocated, as growing an array cost more than the walk. */
  #reached = new Int32Array(0);

  set(slot: number, terms: SortedTerms): void {
    if (slot >= SLOT_SPACE) throw new RangeError(`title index slot ${slot} is out of range`);
    this.remove(slot);
    this.#terms[slot] = terms;
    if (slot >= this.#termCounts.length) this.#termCounts = grown(this.#termCounts, slot + 1);
    this.#termCounts[slot] = terms.length;
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

  /** Whether some title has a term starting with `term`. */
  reaches(term: string): boolean {
    const vocabulary = this.#sortedVocabulary();
    return vocabulary[lowerBound(vocabulary, term)]?.startsWith(term) ?? false;
  }

  /**
   * The slots whose title has a term starting with one of `queryTerms`, highest `bound` first,
   * each with that bound (six decimals, as `bound` gives it); equal
   * bounds highest slot first.
   *
   * Of the title terms the query reaches, the one most titles hold is read in title-length
   * order, where a title holding no other reached term has its bound fall with its length
   * only. The titles of the other terms, usually far fewer, are walked for what each matches
   * and kept in a heap; the two are merged.
   */
  *byBound(queryTerms: readonly string[], bound: (match: TitleMatch) => number): Generator<{ slot: number; bound: number }> {
    const matched = [...this.#matchedTerms(queryTerms)].sort(([a], [b]) => this.#postings.get(b)!.size - this.#postings.get(a)!.size);
    if (matched.length === 0) return;
    const scaledBound = memoBound(bound, queryTerms.length);
    const [first, ...others] = matched as [[string, Masks], ...[string, Masks][]];
    const [commonest, { whole, prefix }] = first;
    const otherSlots = others.map(([term]) => this.#postings.get(term)!);
    const holdsOther = (slot: number) => otherSlots.some((slots) => slots.has(slot));
    const heap = this.#walkedKeys(others, first, scaledBound);
    for (let i = (heap.length >> 1) - 1; i >= 0; i -= 1) siftDown(heap, i, heap.length);
    const byLength = this.#slotsByLength(commonest);
    let next = 0;
    for (let size = heap.length; ; ) {
      while (next < byLength.length && holdsOther(byLength[next]!)) next += 1;
      const lengthKey = next < byLength.length ? scaledBound(whole, prefix, 1, this.#termCounts[byLength[next]!]!) * SLOT_SPACE + byLength[next]! : -1;
      const heapKey = size > 0 ? heap[0]! : -1;
      if (lengthKey < 0 && heapKey < 0) return;
      let key: number;
      if (heapKey > lengthKey) {
        key = heapKey;
        size -= 1;
        heap[0] = heap[size]!;
        siftDown(heap, 0, size);
      } else {
        key = lengthKey;
        next += 1;
      }
      const slot = key % SLOT_SPACE;
      yield { slot, bound: (key - slot) / SLOT_SPACE / BOUND_SCALE };
    }
  }

  /** The title terms the query reaches, each with the query terms it is (whole) or that start it (prefix). */
  #matchedTerms(queryTerms: readonly string[]): Map<string, Masks> {
    const vocabulary = this.#sortedVocabulary();
    const matched = new Map<string, Masks>();
    queryTerms.forEach((queryTerm, index) => {
      const bit = index < MASK_BITS ? 1 << index : 0;
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
   * Packed (bound, slot) keys of the titles holding one of `walked`, what each matches gathered
   * in scratch arrays first, `also` (a term whose titles are not walked) looked up per title.
   */
  #walkedKeys(walked: readonly (readonly [string, Masks])[], also: readonly [string, Masks], scaledBound: ScaledBound): Float64Array {
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
    const alsoSlots = this.#postings.get(alsoTerm)!;
    const heap = new Float64Array(reached);
    for (let i = 0; i < reached; i += 1) {
      const slot = reachedSlots[i]!;
      const inAlso = alsoSlots.has(slot);
      const whole = wholeOf[slot]! | (inAlso ? alsoMasks.whole : 0);
      const prefix = prefixOf[slot]! | (inAlso ? alsoMasks.prefix : 0);
      heap[i] = scaledBound(whole, prefix, covered[slot]! + (inAlso ? 1 : 0), this.#termCounts[slot]!) * SLOT_SPACE + slot;
      covered[slot] = 0;
      wholeOf[slot] = 0;
      prefixOf[slot] = 0;
    }
    return heap;
  }

  #slotsOf(term: string): Int32Array {
    let packed = this.#packed.get(term);
    if (!packed) {
      packed = Int32Array.from(this.#postings.get(term)!);
      this.#packed.set(term, packed);
    }
    return packed;
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

function siftDown(heap: Float64Array, from: number, size: number): void {
  let at = from;
  for (;;) {
    const left = 2 * at + 1;
    if (left >= size) return;
    const right = left + 1;
    const larger = right < size && heap[right]! > heap[left]! ? right : left;
    if (heap[larger]! <= heap[at]!) return;
    const parent = heap[at]!;
    heap[at] = heap[larger]!;
    heap[larger] = parent;
    at = larger;
  }
}

const MEMO_SIZE = 256;

/** A title's bound, scaled to an integer, from its masks (bit per query term), covered terms and term count. */
type ScaledBound = (whole: number, prefix: number, covered: number, termCount: number) => number;

/**
 * `bound` as a ScaledBound, memoized: a query's titles fall into a handful of (strength, focus)
 * pairs, and calling back per title cost as much as the rest of the walk. A query of more than
 * MASK_BITS terms counts every term whole.
 */
function memoBound(bound: (match: TitleMatch) => number, queryTermCount: number): ScaledBound {
  const exactMasks = queryTermCount <= MASK_BITS;
  const strengths = new Float64Array(MEMO_SIZE).fill(Number.NaN);
  const focuses = new Float64Array(MEMO_SIZE);
  const scaled = new Float64Array(MEMO_SIZE);
  return (whole, prefix, covered, termCount) => {
    const strength = exactMasks ? bitCount(whole) + PREFIX_STRENGTH * bitCount(prefix & ~whole) : queryTermCount;
    const focus = covered / termCount;
    const at = (Math.imul(termCount, 0x9e3779b1) ^ Math.imul(covered, 0x85ebca6b) ^ Math.imul(prefix, 0x27d4eb2f) ^ whole) & (MEMO_SIZE - 1);
    if (strengths[at] !== strength || focuses[at] !== focus) {
      strengths[at] = strength;
      focuses[at] = focus;
      scaled[at] = Math.round(bound({ strength, focus }) * BOUND_SCALE);
    }
    return scaled[at]!;
  };
}

function bitCount(mask: number): number {
  let count = 0;
  for (let rest = mask >>> 0; rest !== 0; rest &= rest - 1) count += 1;
  return count;
}
