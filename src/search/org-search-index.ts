import { analyzeDocument, documentTerms, plainBodyOf, type AnalyzedDocument } from './analyze-document.js';
import { termCounts } from './analyzer.js';
import { BM25F, fieldFrequency, idf, saturated, type FieldParameters } from './bm25f.js';
import { buildPreview } from './build-preview.js';
import { FieldIndex } from './field-index.js';
import { parseQuery, type ParsedQuery } from './parse-query.js';
import { proximityScore } from './proximity.js';
import { TopItems } from './select-top.js';
import { SlotLabels } from './slot-labels.js';
import type { DocumentFacts, IndexedDocument, SearchAnswer, SearchHit, SearchQuery } from './types.js';
import { Vocabulary } from './vocabulary.js';

/** Query terms scored at most: past this many, the rarest are kept and the answer says so. */
export const MAX_QUERY_TERMS = 64;
/** A word the query's last word only starts counts this much of the word itself. */
const PREFIX_WEIGHT = 0.5;
/** Longer words a prefix stands for, at most (the shortest first). */
const MAX_PREFIX_WORDS = 64;
/** Proximity's share beside BM25F (see proximity.ts), chosen with BM25F's parameters. */
const PROXIMITY_WEIGHT = 0.5;
/** The best documents by BM25F that proximity may reorder, at least, for a query of several terms. */
const PROXIMITY_POOL = 50;
/** Documents whose positions are kept between searches; the memo starts over past this many. */
const MAX_ANALYZED = 20_000;
/** Below this a found document would score 0, which the contract forbids. */
const MIN_SCORE = 0.001;

/** A document as indexed: its facts and the plain text previews are cut from. */
interface Entry {
  readonly doc: DocumentFacts;
  readonly plainBody: string;
}

/** One term of a query as scored: its words (the term itself, and for a prefix the longer words it starts) and its rarity. */
interface QueryTerm {
  readonly words: readonly { readonly word: string; readonly weight: number }[];
  /** Its rarity, times how often the query holds it (a question that repeats a word stresses it). */
  readonly idf: number;
}

interface Scored {
  readonly slot: number;
  readonly doc: DocumentFacts;
  score: number;
}

/** An index as saved: what it knows of each document (with its slot and field lengths), and FlexSearch's export of each field. */
export interface IndexSnapshot {
  readonly docs: readonly (DocumentFacts & { readonly plainBody: string; readonly slot: number; readonly titleLength: number; readonly documentLength: number })[];
  readonly title: readonly (readonly [key: string, data: string])[];
  readonly document: readonly (readonly [key: string, data: string])[];
}

/**
 * The search index of one organization. FlexSearch finds the documents holding each query term,
 * in two fields: the title, and the whole document. Its postings carry each term's frequency,
 * and the documents are ranked by BM25F (bm25f.ts), the best of them reordered by how close
 * the query's terms stand (proximity.ts).
 */
export class OrgSearchIndex {
  #title = new FieldIndex();
  #document = new FieldIndex();
  readonly #vocabulary = new Vocabulary();
  /** Each document's slot: its id in FlexSearch and its place in `#entries`, kept while it is indexed. */
  readonly #slots = new Map<string, number>();
  readonly #entries: (Entry | undefined)[] = [];
  readonly #analyzed = new Map<number, AnalyzedDocument>();
  /** Each slot's workspace and type, for a search's filters. */
  readonly #workspaces = new SlotLabels();
  readonly #types = new SlotLabels();
  /** Scratch of one search, by slot: a term's summed field frequencies, and the document's score; zero between searches. */
  #frequencies = new Float64Array(0);
  #scores = new Float64Array(0);
  #termTouched = new Int32Array(0);
  #touched = new Int32Array(0);

  get size(): number {
    return this.#slots.size;
  }

  upsert(doc: IndexedDocument): void {
    const plainBody = plainBodyOf(doc.body);
    const known = this.#slots.get(doc.id);
    const slot = known ?? this.#entries.length;
    if (known !== undefined) this.#unindex(slot);
    const terms = documentTerms(doc.title, plainBody);
    const wholeDocument = [...terms.title, ...terms.body];
    const counts = termCounts(wholeDocument);
    for (const term of counts.keys()) this.#vocabulary.add(term);
    this.#title.add(slot, termCounts(terms.title), terms.title.length);
    this.#document.add(slot, counts, wholeDocument.length);
    const { body: _body, ...facts } = doc;
    this.#slots.set(doc.id, slot);
    this.#entries[slot] = { doc: facts, plainBody };
    this.#label(slot, facts);
  }

  remove(id: string): void {
    const slot = this.#slots.get(id);
    if (slot === undefined) return;
    this.#unindex(slot);
    this.#slots.delete(id);
    this.#entries[slot] = undefined;
    this.#workspaces.clear(slot);
    this.#types.clear(slot);
  }

  /** Ids of the indexed documents not in `keep`, removed. */
  retain(keep: ReadonlySet<string>): void {
    for (const id of [...this.#slots.keys()]) if (!keep.has(id)) this.remove(id);
  }

  #unindex(slot: number): void {
    this.#title.remove(slot);
    this.#document.remove(slot);
    this.#analyzed.delete(slot);
  }

  #label(slot: number, doc: DocumentFacts): void {
    this.#workspaces.set(slot, doc.workspaceId);
    this.#types.set(slot, doc.type);
  }

  async snapshot(): Promise<IndexSnapshot> {
    // FlexSearch waits for a returned promise before the next chunk: searches run in between.
    const exportField = async (field: FieldIndex) => {
      const chunks: [string, string][] = [];
      await field.export((key, data) => {
        chunks.push([key, data]);
        return new Promise<void>((resolve) => setImmediate(resolve));
      });
      return chunks;
    };
    const title = await exportField(this.#title);
    const document = await exportField(this.#document);
    const docs = [...this.#slots.values()].map((slot) => {
      const { doc, plainBody } = this.#entries[slot]!;
      return { ...doc, plainBody, slot, titleLength: this.#title.lengths[slot]!, documentLength: this.#document.lengths[slot]! };
    });
    return { docs, title, document };
  }

  /** The index a snapshot was taken of, without analyzing any document again. */
  static fromSnapshot(snapshot: IndexSnapshot): OrgSearchIndex {
    const index = new OrgSearchIndex();
    index.#title = FieldIndex.restore(snapshot.title, new Map(snapshot.docs.map((doc) => [doc.slot, doc.titleLength])));
    index.#document = FieldIndex.restore(snapshot.document, new Map(snapshot.docs.map((doc) => [doc.slot, doc.documentLength])));
    for (const term of index.#document.terms()) index.#vocabulary.add(term);
    for (const { plainBody, slot, titleLength: _title, documentLength: _document, ...doc } of snapshot.docs) {
      index.#slots.set(doc.id, slot);
      index.#entries[slot] = { doc, plainBody };
      index.#label(slot, doc);
    }
    return index;
  }

  /** Best first; equal scores by the more recently changed, then by id. Throws InvalidInputError for an empty query or a bad limit. */
  search(q: SearchQuery): SearchAnswer {
    const parsed = parseQuery(q);
    const all = this.#queryTerms(parsed);
    const terms = all.slice(0, MAX_QUERY_TERMS);
    const notice =
      all.length > terms.length
        ? `The query has ${all.length} distinct words besides stopwords; the ${MAX_QUERY_TERMS} rarest were searched.`
        : undefined;
    if (terms.length === 0) return { hits: [], ...(notice ? { notice } : {}) };
    const poolSize = terms.length > 1 ? Math.max(q.limit, PROXIMITY_POOL) : q.limit;
    const pool = this.#bestByBm25f(terms, q, poolSize);
    const totalIdf = terms.reduce((sum, term) => sum + term.idf, 0);
    const ranked = pool.map((scored) => {
      const proximity = terms.length > 1 ? proximityScore(this.#positions(scored.slot, terms), terms.map((term) => term.idf)) : 0;
      return { ...scored, score: score((scored.score + PROXIMITY_WEIGHT * proximity) / totalIdf) };
    });
    ranked.sort(byRank);
    const queryOf = queryTermOf(terms);
    const hits = ranked.slice(0, q.limit).map(({ slot, doc, score }): SearchHit => ({
      id: doc.id,
      type: doc.type,
      title: doc.title,
      workspaceId: doc.workspaceId,
      preview: buildPreview(this.#analysis(slot), queryOf),
      score,
    }));
    return { hits, ...(notice ? { notice } : {}) };
  }

  /** The query's terms, rarest first, each with its words: a prefix also stands for the longer words it starts. */
  #queryTerms(parsed: ParsedQuery): QueryTerm[] {
    const words = new Map<string, { word: string; weight: number }[]>([...parsed.terms.keys()].map((term) => [term, [{ word: term, weight: 1 }]]));
    if (parsed.prefix !== undefined) {
      const group = parsed.prefixTerm ?? parsed.prefix;
      const grouped = words.get(group) ?? [];
      const longer = this.#vocabulary
        .startingWith(parsed.prefix)
        .filter((word) => word !== group)
        .sort((a, b) => a.length - b.length || (a < b ? -1 : 1))
        .slice(0, MAX_PREFIX_WORDS);
      for (const word of longer) grouped.push({ word, weight: PREFIX_WEIGHT });
      if (grouped.length > 0) words.set(group, grouped);
    }
    const documents = this.#slots.size;
    return [...words]
      .map(([term, group]) => ({
        words: group,
        idf: (parsed.terms.get(term) ?? 1) * idf(documents, Math.max(...group.map(({ word }) => this.#document.documentFrequency(word)))),
      }))
      .filter((term) => term.words.some(({ word }) => this.#document.documentFrequency(word) > 0))
      .sort((a, b) => b.idf - a.idf);
  }

  /**
   * The `size` best documents the caller may see by BM25F, term at a time: each term's postings
   * (a document's frequency is its bucket) add to per-slot sums in typed arrays, cleared after.
   */
  #bestByBm25f(terms: readonly QueryTerm[], q: SearchQuery, size: number): Scored[] {
    this.#reserveScratch();
    const scores = this.#scores;
    const touched = this.#touched;
    let touchedCount = 0;
    for (const term of terms) {
      const termTouched = this.#termTouched;
      let count = 0;
      for (const { word, weight } of term.words) {
        count = this.#addFrequencies(this.#title, BM25F.title, word, weight, count);
        count = this.#addFrequencies(this.#document, BM25F.document, word, weight, count);
      }
      const frequencies = this.#frequencies;
      for (let i = 0; i < count; i++) {
        const slot = termTouched[i]!;
        if (scores[slot] === 0) touched[touchedCount++] = slot;
        scores[slot]! += saturated(term.idf, frequencies[slot]!);
        frequencies[slot] = 0;
      }
    }
    const inWorkspace = this.#workspaces.admitting(q.workspaceIds);
    const ofType = q.types?.length ? this.#types.admitting(q.types) : undefined;
    const top = new TopItems<Scored>(size, byRank);
    for (let i = 0; i < touchedCount; i++) {
      const slot = touched[i]!;
      const value = scores[slot]!;
      scores[slot] = 0;
      const worst = top.worst;
      if ((worst && value < worst.score) || !inWorkspace(slot) || (ofType && !ofType(slot))) continue;
      top.add({ slot, doc: this.#entries[slot]!.doc, score: value });
    }
    return [...top.items];
  }

  /** Adds one word's field frequencies in `field` to the term's sums; returns how many slots the term has touched. */
  #addFrequencies(field: FieldIndex, parameters: FieldParameters, word: string, weight: number, count: number): number {
    const postings = field.postings(word);
    if (!postings) return count;
    const frequencies = this.#frequencies;
    const termTouched = this.#termTouched;
    const lengths = field.lengths;
    const average = field.averageLength;
    let touched = count;
    for (let bucket = 0; bucket < postings.length; bucket++) {
      const slots = postings[bucket];
      if (!slots) continue;
      const tf = bucket + 1;
      for (const slot of slots) {
        if (frequencies[slot] === 0) termTouched[touched++] = slot;
        frequencies[slot]! += weight * fieldFrequency(parameters, tf, lengths[slot]!, average);
      }
    }
    return touched;
  }

  #reserveScratch(): void {
    const slots = this.#entries.length;
    if (this.#scores.length >= slots) return;
    const size = Math.max(slots, this.#scores.length * 2, 1024);
    this.#frequencies = new Float64Array(size);
    this.#scores = new Float64Array(size);
    this.#termTouched = new Int32Array(size);
    this.#touched = new Int32Array(size);
  }

  /** Per query term, where its words occur in the document (merged, in order). */
  #positions(slot: number, terms: readonly QueryTerm[]): number[][] {
    const { positions } = this.#analysis(slot);
    return terms.map(({ words }) => {
      const at = words.flatMap(({ word }) => positions.get(word) ?? []);
      return words.length > 1 ? at.sort((a, b) => a - b) : at;
    });
  }

  #analysis(slot: number): AnalyzedDocument {
    let analyzed = this.#analyzed.get(slot);
    if (!analyzed) {
      const entry = this.#entries[slot]!;
      analyzed = analyzeDocument(entry.doc, entry.plainBody);
      if (this.#analyzed.size >= MAX_ANALYZED) this.#analyzed.clear();
      this.#analyzed.set(slot, analyzed);
    }
    return analyzed;
  }
}

/** Which query term a document term belongs to (its index), -1 for none. */
function queryTermOf(terms: readonly QueryTerm[]): (word: string) => number {
  const owner = new Map<string, number>();
  terms.forEach((term, index) => {
    for (const { word } of term.words) owner.set(word, index);
  });
  return (word) => owner.get(word) ?? -1;
}

/** In (0, 1], to six decimals: stable across platforms, so equal matches tie and the tie-break decides. */
const score = (share: number): number => Math.max(MIN_SCORE, Math.min(1, Math.round(share * 1e6) / 1e6));

const byRank = (a: Scored, b: Scored): number =>
  b.score - a.score || compare(b.doc.updatedAt, a.doc.updatedAt) || compare(a.doc.id, b.doc.id);

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
