import { Index, type Encoder } from 'flexsearch';
import { grown } from './grown.js';

/** Frequencies above this count as this: BM25's saturation makes more all but equal. */
export const MAX_COUNTED_FREQUENCY = 32;

/** A term's postings as FlexSearch 0.8 keeps them: ids by score bucket. Here bucket `b` holds the documents where the term occurs `b + 1` times. */
export type Postings = readonly (readonly number[] | undefined)[];

/**
 * Where FlexSearch 0.8 keeps an index's postings (`map`, term to buckets) and, with `fastupdate`,
 * each id's buckets (`reg`). Not in the typings; the field index tests fail if a later version
 * keeps them elsewhere.
 */
interface FlexInternals {
  readonly map: Map<string, number[][]>;
  reg: Map<number, number[][]> | Set<number>;
  fastupdate: boolean;
}

/** Documents are handed to FlexSearch as their distinct terms, already analyzed: its encoder passes them on. */
const givenTerms = { encode: (terms: readonly string[]): readonly string[] => terms };

/**
 * One field of an organization's documents (the title, or the whole document) in FlexSearch,
 * which finds the documents holding a term. FlexSearch files each posting under a score bucket;
 * here the bucket is the term's frequency in the document, so the postings carry what BM25
 * needs, and the field keeps each document's length beside them.
 */
export class FieldIndex {
  /** The frequencies of the document being added, read by FlexSearch's score callback. */
  #counts: ReadonlyMap<string, number> = new Map();
  readonly #flex = new Index({
    encoder: givenTerms as unknown as Encoder,
    tokenize: 'strict',
    resolution: MAX_COUNTED_FREQUENCY,
    fastupdate: true,
    score: (_content: string[], term: string) => Math.min(this.#counts.get(term) ?? 1, MAX_COUNTED_FREQUENCY) - 1,
  } as ConstructorParameters<typeof Index>[0]);
  readonly #internals = this.#flex as unknown as FlexInternals;
  #lengths: Uint32Array = new Uint32Array(0);
  #totalLength = 0;
  #documents = 0;

  /** Indexes a document not indexed in this field yet by how often it holds each term, and its length in terms. */
  add(slot: number, counts: ReadonlyMap<string, number>, length: number): void {
    this.#counts = counts;
    if (counts.size > 0) this.#flex.add(slot, [...counts.keys()] as unknown as string);
    if (slot >= this.#lengths.length) this.#lengths = grown(this.#lengths, slot + 1);
    this.#lengths[slot] = length;
    this.#totalLength += length;
    this.#documents += 1;
  }

  /** Removes an indexed document. */
  remove(slot: number): void {
    this.#flex.remove(slot);
    this.#totalLength -= this.#lengths[slot]!;
    this.#lengths[slot] = 0;
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

  /** Each document's length in terms, by slot. */
  get lengths(): Uint32Array {
    return this.#lengths;
  }

  get averageLength(): number {
    return this.#documents === 0 ? 1 : Math.max(1, this.#totalLength / this.#documents);
  }

  /** Every term held, unordered. */
  terms(): IterableIterator<string> {
    return this.#internals.map.keys();
  }

  /** FlexSearch's export, chunk by chunk. */
  async export(chunk: (key: string, data: string) => Promise<void>): Promise<void> {
    await this.#flex.export(chunk);
  }

  /**
   * A field restored from FlexSearch's export and each document's length. FlexSearch's import
   * drops `fastupdate` (then every removal scans all postings): each id's buckets are found
   * again from the postings, once.
   */
  static restore(chunks: readonly (readonly [key: string, data: string])[], lengths: ReadonlyMap<number, number>): FieldIndex {
    const field = new FieldIndex();
    const internals = field.#internals;
    // As FlexSearch's own import leaves it: ids in a Set.
    internals.fastupdate = false;
    internals.reg = new Set();
    for (const [key, data] of chunks) field.#flex.import(key, data);
    const held = new Map<number, number[][]>();
    for (const buckets of internals.map.values()) {
      for (const bucket of buckets) {
        for (const slot of bucket ?? []) {
          const of = held.get(slot);
          if (of) of.push(bucket);
          else held.set(slot, [bucket]);
        }
      }
    }
    internals.reg = held;
    internals.fastupdate = true;
    for (const [slot, length] of lengths) {
      if (slot >= field.#lengths.length) field.#lengths = grown(field.#lengths, slot + 1);
      field.#lengths[slot] = length;
      field.#totalLength += length;
      field.#documents += 1;
    }
    return field;
  }
}
