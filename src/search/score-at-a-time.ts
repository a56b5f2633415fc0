import { bucketCeiling, bucketFloor, type ImpactIndex, type Postings } from './impact-index.js';

/** One term of a query as scored: its words (the term itself, and for a prefix the longer words it starts) and its rarity. */
export interface QueryTerm {
  readonly words: readonly { readonly word: string; readonly weight: number }[];
  /** Its rarity, times how often the query holds it (a question that repeats a word stresses it). */
  readonly idf: number;
}

export interface Scored {
  readonly slot: number;
  readonly score: number;
}

export interface ImpactSearch {
  /** How many documents to return. */
  readonly size: number;
  /** Whether the caller may see a slot (its workspace and type). */
  readonly admits: (slot: number) => boolean;
  readonly scratch: Accumulators;
  /** Postings read at most once `size` documents are held. */
  readonly postingsBudget: number;
}

/** A query word's postings as read so far: `bucket` is the next one unread (postings.length once all are). */
interface Stream {
  readonly word: string;
  readonly postings: Postings;
  /** The term's idf times the word's weight: what the word adds per unit of impact. */
  readonly weight: number;
  bucket: number;
}

/**
 * Postings read at most, once `size` documents are held: the bound of "anytime" ranking over an
 * impact-ordered index (Lin and Trotman, 2015). What is left unread is what weighs least; the
 * search bench measures how often the top results still equal reading everything.
 */
export const POSTINGS_BUDGET = 5_000;

/**
 * The `size` documents the caller may see with the best impact sums (each impact a lower bound,
 * to 1/64, of the term's BM25F weight), read score at a time (Anh and Moffat, "Pruned query
 * evaluation using pre-computed impacts", 2006): of all query words' buckets, the one adding the
 * most is read next, into per-slot sums, the best `size` kept in a heap as they grow. Reading
 * stops once the `size`-th best sum is at least what any unread document could reach, or the
 * postings budget is spent; the caller scores what is returned (in no order) exactly.
 */
export function bestByImpact(index: ImpactIndex, terms: readonly QueryTerm[], search: ImpactSearch): Scored[] {
  const streams: Stream[] = [];
  for (const term of terms) {
    for (const { word, weight } of term.words) {
      const postings = index.postings(word);
      if (!postings) continue;
      const stream = { word, postings, weight: term.idf * weight, bucket: 0 };
      skipEmpty(stream);
      if (stream.bucket < postings.length) streams.push(stream);
    }
  }
  const { admits, postingsBudget, scratch } = search;
  const { values, tags } = scratch;
  const { admitted, refused } = scratch.nextSearch();
  const best = scratch.best(search.size);
  let read = 0;
  let active = streams;
  // The heap's least sum: a slot whose sum does not pass it can neither enter nor move within the heap.
  let floor = best.threshold();
  let spent = false;
  while (active.length > 0 && !spent) {
    const stream = active.reduce((best, next) =>
      next.weight * bucketCeiling(next.bucket) > best.weight * bucketCeiling(best.bucket) ? next : best,
    );
    const gain = stream.weight * bucketFloor(stream.bucket);
    const segment = stream.postings[stream.bucket]!;
    // A bucket's postings weigh alike, so the budget, counted once `size` documents are held, may
    // end a search inside one.
    let end = floor === -Infinity ? segment.length : Math.min(segment.length, postingsBudget - read);
    let at = 0;
    for (; at < end; at++) {
      const slot = segment[at]!;
      const sum = slot << 1;
      const tag = tags[sum + 1];
      if (tag === admitted) {
        values[sum]! += gain;
      } else if (tag === refused) {
        continue;
      } else if (admits(slot)) {
        tags[sum + 1] = admitted;
        values[sum] = gain;
      } else {
        tags[sum + 1] = refused;
        continue;
      }
      if (values[sum]! > floor) {
        const held = floor !== -Infinity;
        best.raised(slot);
        floor = best.threshold();
        if (!held && floor !== -Infinity) end = Math.min(segment.length, Math.max(at + 1, postingsBudget - read));
      }
    }
    read += at;
    if (at < segment.length) spent = true;
    stream.bucket += 1;
    skipEmpty(stream);
    active = active.filter((each) => each.bucket < each.postings.length);
    if (remainingOf(active) <= floor) break;
  }
  const kept = best.slots().map((slot) => ({ slot, score: values[slot << 1]! }));
  best.clear();
  return kept;
}

function skipEmpty(stream: Stream): void {
  while (stream.bucket < stream.postings.length && !stream.postings[stream.bucket]?.length) stream.bucket += 1;
}

/** The most a document no unread bucket has reached could still add up to. */
const remainingOf = (active: readonly Stream[]): number =>
  active.reduce((sum, stream) => sum + stream.weight * bucketCeiling(stream.bucket), 0);

/**
 * The `k` slots of largest sum, as a min-heap over `sums`: sums only grow during a search, so a
 * slot that grows either moves down within the heap or takes the place of its least.
 */
class BestSums {
  #size = 0;

  constructor(
    /** Each slot's sum at twice its number (see Accumulators). */
    private readonly values: Float32Array,
    private readonly heap: Int32Array,
    /** Per slot, its place in the heap plus one; 0 outside it. */
    private readonly places: Int32Array,
    private readonly k: number,
  ) {}

  /** The `k`-th largest sum so far; -Infinity while fewer than `k` slots have one. */
  threshold(): number {
    return this.#size < this.k ? -Infinity : this.#sum(this.heap[0]!);
  }

  /** `slot`'s sum has grown. */
  raised(slot: number): void {
    const place = this.places[slot]!;
    if (place > 0) {
      this.#down(place - 1);
    } else if (this.#size < this.k) {
      this.#put(this.#size, slot);
      this.#size += 1;
      this.#up(this.#size - 1);
    } else if (this.#sum(slot) > this.#sum(this.heap[0]!)) {
      this.places[this.heap[0]!] = 0;
      this.#put(0, slot);
      this.#down(0);
    }
  }

  slots(): number[] {
    return Array.from(this.heap.subarray(0, this.#size));
  }

  /** Empties the heap, leaving `places` all zero. */
  clear(): void {
    for (let i = 0; i < this.#size; i++) this.places[this.heap[i]!] = 0;
    this.#size = 0;
  }

  #sum(slot: number): number {
    return this.values[slot << 1]!;
  }

  #put(at: number, slot: number): void {
    this.heap[at] = slot;
    this.places[slot] = at + 1;
  }

  #less(a: number, b: number): boolean {
    return this.#sum(this.heap[a]!) < this.#sum(this.heap[b]!);
  }

  #swap(a: number, b: number): void {
    const slot = this.heap[a]!;
    this.#put(a, this.heap[b]!);
    this.#put(b, slot);
  }

  #up(at: number): void {
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.#less(at, parent)) return;
      this.#swap(at, parent);
      at = parent;
    }
  }

  #down(at: number): void {
    for (;;) {
      const left = 2 * at + 1;
      let least = at;
      if (left < this.#size && this.#less(left, least)) least = left;
      if (left + 1 < this.#size && this.#less(left + 1, least)) least = left + 1;
      if (least === at) return;
      this.#swap(at, least);
      at = least;
    }
  }
}

/**
 * Per-slot scratch of searches, grown with the index; one search runs at a time. Each slot has a
 * sum and a tag side by side, so a posting costs one cache line: a search at 100,000 slots walks
 * them at random, and two arrays (with a list of the slots to clear after) were two misses per
 * posting and a third pass. The tag says which search last touched the slot and whether that
 * search admitted it: a sum counts only under the current search's tag, so nothing is cleared
 * between searches. Sums are single precision: they only choose the candidates that are then
 * scored exactly.
 */
export class Accumulators {
  /** The sum of slot `n` at 2n. */
  values = new Float32Array(0);
  /** The tag of slot `n` at 2n + 1, in the same buffer as `values`. */
  tags = new Uint32Array(0);
  #places = new Int32Array(0);
  #heap = new Int32Array(0);
  #search = 0;

  reserve(slots: number): this {
    if (this.#places.length >= slots) return this;
    const size = Math.max(slots, this.#places.length * 2, 1024);
    const buffer = new ArrayBuffer(size * 2 * Float32Array.BYTES_PER_ELEMENT);
    this.values = new Float32Array(buffer);
    this.tags = new Uint32Array(buffer);
    this.#places = new Int32Array(size);
    this.#search = 0;
    return this;
  }

  /** The tags of a new search: a slot it admitted, one it refused; neither was given before. */
  nextSearch(): { admitted: number; refused: number } {
    this.#search += 1;
    if (2 * this.#search + 1 > MAX_TAG) {
      this.tags.fill(0);
      this.#search = 1;
    }
    return { admitted: 2 * this.#search, refused: 2 * this.#search + 1 };
  }

  /** A heap of the `k` best sums, empty. */
  best(k: number): BestSums {
    if (this.#heap.length < k) this.#heap = new Int32Array(k);
    return new BestSums(this.values, this.#heap, this.#places, k);
  }
}

/** Tags are 32-bit: past this the searches are counted from 1 again, every tag cleared first. */
const MAX_TAG = 0xffff_ffff;
