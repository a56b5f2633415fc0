import { Index, type Encoder } from 'flexsearch';
import { termImpact, type Fields } from './bm25f.js';
import { grown } from './grown.js';

/** Impacts (bm25f.ts's termImpact, in [0, 1)) are filed in this many equal steps. */
export const IMPACT_LEVELS = 64;

/** A term's postings as FlexSearch 0.8 keeps them: ids by score bucket, bucket 0 the highest impact. */
export type Postings = readonly (readonly number[] | undefined)[];

/** The lowest and highest impact of a document in bucket `bucket` (half-open). */
export const bucketFloor = (bucket: number): number => (IMPACT_LEVELS - 1 - bucket) / IMPACT_LEVELS;
export const bucketCeiling = (bucket: number): number => (IMPACT_LEVELS - bucket) / IMPACT_LEVELS;
const bucketOf = (impact: number): number =>
  IMPACT_LEVELS - 1 - Math.min(IMPACT_LEVELS - 1, Math.floor(impact * IMPACT_LEVELS));

/**
 * Where FlexSearch 0.8 keeps an index's postings (`map`, term to buckets) and, with `fastupdate`,
 * each id's buckets (`reg`). Not in the typings; the index tests fail if a later version keeps
 * them elsewhere.
 */
interface FlexInternals {
  readonly map: Map<string, number[][]>;
  reg: Map<number, number[][]> | Set<number>;
  fastupdate: boolean;
}

/** Documents are handed to FlexSearch as their distinct terms, already analyzed: its encoder passes them on. */
const givenTerms = { encode: (terms: readonly string[]): readonly string[] => terms };

/** What the index counts of a document: how often each term occurs in its title and in the whole document, and both lengths in terms. */
export interface CountedDocument {
  readonly title: ReadonlyMap<string, number>;
  readonly document: ReadonlyMap<string, number>;
  readonly length: Fields;
}

/**
 * An organization's documents in FlexSearch, which finds the documents holding a term. FlexSearch
 * files each posting under a score bucket; here the bucket is the term's BM25F impact in the
 * document, quantized (an impact-ordered index, after Anh and Moffat), so a term's postings
 * come best first and a search can stop once no document left unread could rank. Each
 * document's field lengths are kept for the averages BM25F normalizes by; a document's impacts
 * are worked out with the averages as they stand when it is indexed.
 */
export class ImpactIndex {
  /** The buckets of the document being added, read by FlexSearch's score callback. */
  #buckets: ReadonlyMap<string, number> = new Map();
  readonly #flex = new Index({
    encoder: givenTerms as unknown as Encoder,
    tokenize: 'strict',
    resolution: IMPACT_LEVELS,
    fastupdate: true,
    score: (_content: string[], term: string) => this.#buckets.get(term) ?? IMPACT_LEVELS - 1,
  } as ConstructorParameters<typeof Index>[0]);
  readonly #internals = this.#flex as unknown as FlexInternals;
  #titleLengths: Uint32Array = new Uint32Array(0);
  #documentLengths: Uint32Array = new Uint32Array(0);
  #totals = { title: 0, document: 0 };
  #documents = 0;

  add(slot: number, counted: CountedDocument): void {
    this.#setLengths(slot, counted.length);
    const average = this.averages();
    const buckets = new Map<string, number>();
    for (const [term, tf] of counted.document) {
      buckets.set(
        term,
        bucketOf(termImpact({ title: counted.title.get(term) ?? 0, document: tf }, counted.length, average)),
      );
    }
    this.#buckets = buckets;
    if (buckets.size > 0) this.#flex.add(slot, [...buckets.keys()] as unknown as string);
  }

  /** Removes an indexed document. */
  remove(slot: number): void {
    this.#flex.remove(slot);
    this.#totals = {
      title: this.#totals.title - this.#titleLengths[slot]!,
      document: this.#totals.document - this.#documentLengths[slot]!,
    };
    this.#documents -= 1;
  }

  postings(term: string): Postings | undefined {
    return this.#internals.map.get(term);
  }

  /** How many documents hold `term`. */
  documentFrequency(term: string): number {
    let count = 0;
    for (const bucket of this.postings(term) ?? []) count += bucket?.length ?? 0;
    return count;
  }

  lengthsOf(slot: number): Fields {
    return { title: this.#titleLengths[slot]!, document: this.#documentLengths[slot]! };
  }

  averages(): Fields {
    const documents = Math.max(1, this.#documents);
    return {
      title: Math.max(1, this.#totals.title / documents),
      document: Math.max(1, this.#totals.document / documents),
    };
  }

  /** Every term held, unordered. */
  terms(): IterableIterator<string> {
    return this.#internals.map.keys();
  }

  #setLengths(slot: number, length: Fields): void {
    if (slot >= this.#titleLengths.length) {
      this.#titleLengths = grown(this.#titleLengths, slot + 1);
      this.#documentLengths = grown(this.#documentLengths, slot + 1);
    }
    this.#titleLengths[slot] = length.title;
    this.#documentLengths[slot] = length.document;
    this.#totals = { title: this.#totals.title + length.title, document: this.#totals.document + length.document };
    this.#documents += 1;
  }

  /** FlexSearch's export, chunk by chunk. */
  async export(chunk: (key: string, data: string) => Promise<void>): Promise<void> {
    // The typings list the synchronous overload first, which an async handler fits too; at run time
    // export returns the chain of the handler's promises.
    await (this.#flex.export(chunk) as unknown as Promise<void>);
  }

  /**
   * An index restored from FlexSearch's export and each document's field lengths. FlexSearch's
   * import drops `fastupdate` (then every removal scans all postings): each id's buckets are found
   * again from the postings, once.
   */
  static restore(
    chunks: readonly (readonly [key: string, data: string])[],
    lengths: ReadonlyMap<number, Fields>,
  ): ImpactIndex {
    const index = new ImpactIndex();
    const internals = index.#internals;
    // As FlexSearch's own import leaves it: ids in a Set.
    internals.fastupdate = false;
    internals.reg = new Set();
    for (const [key, data] of chunks) index.#flex.import(key, data);
    const held = new Map<number, number[][]>();
    for (const buckets of internals.map.values()) {
      for (const slots of buckets) {
        for (const slot of slots ?? []) {
          const arrays = held.get(slot);
          if (arrays) arrays.push(slots);
          else held.set(slot, [slots]);
        }
      }
    }
    internals.reg = held;
    internals.fastupdate = true;
    for (const [slot, length] of lengths) index.#setLengths(slot, length);
    return index;
  }
}
