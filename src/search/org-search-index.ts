import type { Document, Encoder } from 'flexsearch';
import { analyzeDocument, createWordEncoder, plainBodyOf, type AnalyzedDocument } from './analyze-document.js';
import { buildPreview } from './build-preview.js';
import { createTextEncoder } from './encoder.js';
import { createFlexIndex, searchCandidates, type CandidateLimits, type FlexDocument } from './flex-index.js';
import { matchRanges } from './match-ranges.js';
import { parseQuery } from './parse-query.js';
import { scoreDocument } from './score-document.js';
import { selectTop } from './select-top.js';
import type { DocumentFacts, IndexedDocument, SearchHit, SearchQuery } from './types.js';

/**
 * Candidates fetched before ranking: FlexSearch's order decides who is considered, our score
 * decides the order. Title matches carry most of the score, so the title field is read deeper.
 */
const BODY_CANDIDATES_PER_RESULT = 10;
const MIN_BODY_CANDIDATES = 100;
const TITLE_DEPTH = 3;
const CANDIDATE_GROWTH = 4;

/** The first fetch for a result limit; widened by CANDIDATE_GROWTH while filters starve it. */
export const candidateLimits = (limit: number, growth = 1): CandidateLimits => {
  const body = Math.max(MIN_BODY_CANDIDATES, limit * BODY_CANDIDATES_PER_RESULT) * growth;
  return { title: body * TITLE_DEPTH, body };
};

/**
 * A document as indexed. Ranking's analysis is made the first time the document is a candidate:
 * most documents never are, and analysing all of them up front doubled the cost of a build.
 */
interface Entry {
  readonly doc: DocumentFacts;
  readonly plainBody: string;
  analyzed?: AnalyzedDocument;
}

/** An index as saved: what it knows of each document (with its slot), and FlexSearch's own export. */
export interface IndexSnapshot {
  readonly docs: readonly (DocumentFacts & { readonly plainBody: string; readonly slot: number })[];
  readonly flex: readonly (readonly [key: string, data: string])[];
}

/** The search index of one organization: FlexSearch for retrieval, our scoring for ranking. */
export class OrgSearchIndex {
  readonly #encoder: Encoder = createTextEncoder();
  readonly #encodeWord = createWordEncoder(this.#encoder);
  readonly #flex: Document<FlexDocument> = createFlexIndex(this.#encoder);
  /** Each document's slot: its id in FlexSearch and its place in `#entries`, kept while it is indexed. */
  readonly #slots = new Map<string, number>();
  readonly #entries: (Entry | undefined)[] = [];

  get size(): number {
    return this.#slots.size;
  }

  upsert(doc: IndexedDocument): void {
    const plainBody = plainBodyOf(doc.body);
    const known = this.#slots.get(doc.id);
    const slot = known ?? this.#entries.length;
    // Plain text, so link targets and markdown markers are neither found nor ranked.
    const entry: FlexDocument = { id: slot, title: doc.title, body: plainBody };
    if (known === undefined) this.#flex.add(entry);
    else this.#flex.update(entry);
    const { body: _body, ...facts } = doc;
    this.#slots.set(doc.id, slot);
    this.#entries[slot] = { doc: facts, plainBody };
  }

  /** Ids of the indexed documents not in `keep`, removed. */
  retain(keep: ReadonlySet<string>): void {
    for (const id of [...this.#slots.keys()]) if (!keep.has(id)) this.remove(id);
  }

  async snapshot(): Promise<IndexSnapshot> {
    const flex: [string, string][] = [];
    // FlexSearch waits for a returned promise before the next chunk: searches run in between.
    await this.#flex.export((key: string, data: string) => {
      flex.push([key, data]);
      return new Promise<void>((resolve) => setImmediate(resolve));
    });
    const docs = [...this.#slots.values()].map((slot) => {
      const { doc, plainBody } = this.#entries[slot]!;
      return { ...doc, plainBody, slot };
    });
    return { docs, flex };
  }

  /** The index a snapshot was taken of, without indexing anything again. */
  static fromSnapshot(snapshot: IndexSnapshot): OrgSearchIndex {
    const index = new OrgSearchIndex();
    for (const [key, data] of snapshot.flex) index.#flex.import(key, data);
    for (const { plainBody, slot, ...doc } of snapshot.docs) {
      index.#slots.set(doc.id, slot);
      index.#entries[slot] = { doc, plainBody };
    }
    return index;
  }

  remove(id: string): void {
    const slot = this.#slots.get(id);
    if (slot === undefined) return;
    this.#slots.delete(id);
    this.#entries[slot] = undefined;
    this.#flex.remove(slot);
  }

  /** See match-ranges.ts. */
  matchRanges(query: string, text: string): [number, number][] {
    return matchRanges(this.#encoder, this.#encodeWord, query, text);
  }

  /** Best first; ties by title, then id. Throws InvalidInputError for an empty query or bad limit. */
  search(q: SearchQuery): SearchHit[] {
    const query = parseQuery(this.#encoder, q);
    if (query.terms.length === 0) return [];
    const scored = this.#admissibleCandidates(query.text, q).map((candidate) => ({
      candidate,
      score: scoreDocument(candidate, query),
    }));
    return selectTop(scored, q.limit, byRank).map(({ candidate, score }) => ({
      id: candidate.doc.id,
      type: candidate.doc.type,
      title: candidate.doc.title,
      workspaceId: candidate.doc.workspaceId,
      preview: buildPreview(candidate, query.terms),
      score,
    }));
  }

  /**
   * Candidates the caller may see. Filtering happens before the limit, so when filters drop
   * most candidates the fetch widens until enough remain or FlexSearch has nothing more.
   */
  #admissibleCandidates(text: string, q: SearchQuery): AnalyzedDocument[] {
    const wanted = candidateLimits(q.limit).body;
    const types = q.types?.length ? new Set(q.types) : null;
    for (let growth = 1; ; growth *= CANDIDATE_GROWTH) {
      const limits = candidateLimits(q.limit, growth);
      const { ids, truncated } = searchCandidates(this.#flex, text, limits);
      const admissible: AnalyzedDocument[] = [];
      for (const slot of ids) {
        const entry = this.#entries[slot];
        if (!entry || !q.workspaceIds.has(entry.doc.workspaceId)) continue;
        if (types && !types.has(entry.doc.type)) continue;
        admissible.push((entry.analyzed ??= analyzeDocument(this.#encoder, this.#encodeWord, entry.doc, entry.plainBody)));
      }
      if (!truncated || admissible.length >= wanted || limits.body >= this.#slots.size) return admissible;
    }
  }
}

interface Scored {
  readonly candidate: AnalyzedDocument;
  readonly score: number;
}

const byRank = (a: Scored, b: Scored): number =>
  b.score - a.score ||
  compare(a.candidate.sortTitle, b.candidate.sortTitle) ||
  compare(a.candidate.doc.id, b.candidate.doc.id);

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
