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
  const { sums, state, marked } = search.scratch;
  const best = search.scratch.best(search.size);
  let markedCount = 0;
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
    for (const slot of segment) {
      let seen = state[slot]!;
      if (seen === UNSEEN) {
        seen = search.admits(slot) ? ADMITTED : REFUSED;
        state[slot] = seen;
        marked[markedCount++] = slot;
      }
      if (seen === ADMITTED) {
        sums[slot]! += gain;
        if (sums[slot]! > floor) {
          best.raised(slot);
          floor = best.threshold();
        }
      }
      // A bucket's postings weigh alike, so the budget may end a search inside one.
      read += 1;
      if (read >= search.postingsBudget && floor !== -Infinity) {
        spent = true;
        break;
      }
    }
    stream.bucket += 1;
    skipEmpty(stream);
    active = active.filter((each) => each.bucket < each.postings.length);
    if (remainingOf(active) <= floor) break;
  }
  const kept = best.slots().map((slot) => ({ slot, score: sums[slot]! }));
  best.clear();
  for (let i = 0; i < markedCount; i++) {
    const slot = marked[i]!;
    sums[slot] = 0;
    state[slot] = UNSEEN;
  }
  return kept;
}

const UNSEEN = 0;
const ADMITTED = 1;
const REFUSED = 2;

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
    private readonly sums: Float32Array,
    private readonly heap: Int32Array,
    /** Per slot, its place in the heap plus one; 0 outside it. */
    private readonly places: Int32Array,
    private readonly k: number,
  ) {}

  /** The `k`-th largest sum so far; -Infinity while fewer than `k` slots have one. */
  threshold(): number {
    return this.#size < this.k ? -Infinity : this.sums[this.heap[0]!]!;
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
    } else if (this.sums[slot]! > this.sums[this.heap[0]!]!) {
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

  #put(at: number, slot: number): void {
    this.heap[at] = slot;
    this.places[slot] = at + 1;
  }

  #less(a: number, b: number): boolean {
    return this.sums[this.heap[a]!]! < this.sums[this.heap[b]!]!;
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
 * Per-slot scratch of one search, zero between searches; grown with the index. One search runs at
 * a time. Sums are single precision: they only choose the candidates that are then scored exactly,
 * and half the bytes is half the cache a search at 100,000 slots walks through at random.
 */
export class Accumulators {
  sums = new Float32Array(0);
  state = new Uint8Array(0);
  marked = new Int32Array(0);
  #places = new Int32Array(0);
  #heap = new Int32Array(0);

  reserve(slots: number): this {
    if (this.sums.length >= slots) return this;
    const size = Math.max(slots, this.sums.length * 2, 1024);
    this.sums = new Float32Array(size);
    this.state = new Uint8Array(size);
    this.marked = new Int32Array(size);
    this.#places = new Int32Array(size);
    return this;
  }

  /** A heap of the `k` best sums, empty. */
  best(k: number): BestSums {
    if (this.#heap.length < k) this.#heap = new Int32Array(k);
    return new BestSums(this.sums, this.#heap, this.#places, k);
  }
}
