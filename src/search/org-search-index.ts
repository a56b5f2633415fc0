import type { Encoder } from 'flexsearch';
import { analyzeDocument, createWordEncoder, distinctEncodedTerms, plainBodyOf, titleTermsOf, type AnalyzedDocument } from './analyze-document.js';
import { BodyIndex } from './body-index.js';
import { buildPreview } from './build-preview.js';
import { createTextEncoder, normalizeText } from './encoder.js';
import { matchRanges } from './match-ranges.js';
import { parseQuery, type ParsedQuery } from './parse-query.js';
import { bodyOnlyBound, MASK_BITS, scaledBound, termBit, type TermMasks } from './match-masks.js';
import { scoreDocument } from './score-document.js';
import { TopItems } from './select-top.js';
import { SlotLabels } from './slot-labels.js';
import { TitleIndex } from './title-index.js';
import type { DocumentFacts, IndexedDocument, SearchHit, SearchQuery } from './types.js';

/**
 * Bodies fetched from FlexSearch when a body-only match could still rank: its order decides
 * which are considered, our score the order. Widened by BODY_GROWTH while filters starve it.
 */
const BODY_CANDIDATES_PER_RESULT = 10;
const MIN_BODY_CANDIDATES = 100;
const BODY_GROWTH = 4;

/**
 * Titles scored at most, best bound first: a bound counts the body at its best, so for a common
 * word thousands of titles can share the bound of the best ones, and analysing each for its
 * score costs the worker a lot. Past this many the search stops with the best of those scored,
 * even if an unscored title's bound says it could still have ranked.
 */
const TITLE_CANDIDATES_PER_RESULT = 50;
const MIN_TITLE_CANDIDATES = 500;

/** The first body fetch for a result limit. */
export const bodyCandidateLimit = (limit: number): number => Math.max(MIN_BODY_CANDIDATES, limit * BODY_CANDIDATES_PER_RESULT);

/**
 * A document as indexed. Ranking's analysis is made the first time the document is a candidate:
 * most documents never are, and analysing all of them up front doubled the cost of a build.
 */
interface Entry {
  readonly doc: DocumentFacts;
  readonly plainBody: string;
  analyzed?: AnalyzedDocument;
}

/** An index as saved: what it knows of each document (with its slot), FlexSearch's own export, and the terms bodies hold. */
export interface IndexSnapshot {
  readonly docs: readonly (DocumentFacts & { readonly plainBody: string; readonly slot: number })[];
  readonly flex: readonly (readonly [key: string, data: string])[];
  readonly bodyTerms: readonly string[];
}

/**
 * The search index of one organization: our title index and FlexSearch (bodies) for retrieval,
 * our scoring for ranking.
 */
export class OrgSearchIndex {
  readonly #encoder: Encoder = createTextEncoder();
  readonly #encodeWord = createWordEncoder(this.#encoder);
  #bodies = new BodyIndex();
  readonly #titles = new TitleIndex();
  /** Each document's slot: its id in FlexSearch and its place in `#entries`, kept while it is indexed. */
  readonly #slots = new Map<string, number>();
  readonly #entries: (Entry | undefined)[] = [];
  /** Each slot's workspace and type, for a search's filters. */
  readonly #workspaces = new SlotLabels();
  readonly #types = new SlotLabels();

  get size(): number {
    return this.#slots.size;
  }

  upsert(doc: IndexedDocument): void {
    const plainBody = plainBodyOf(doc.body);
    const known = this.#slots.get(doc.id);
    const slot = known ?? this.#entries.length;
    // Plain text, so link targets and markdown markers are neither found nor ranked.
    this.#bodies.set(slot, distinctEncodedTerms(this.#encodeWord, plainBody), known !== undefined);
    this.#titles.set(slot, titleTermsOf(this.#encoder, doc.title), normalizeText(doc.title));
    const { body: _body, ...facts } = doc;
    this.#slots.set(doc.id, slot);
    this.#entries[slot] = { doc: facts, plainBody };
    this.#label(slot, facts);
  }

  #label(slot: number, doc: DocumentFacts): void {
    this.#workspaces.set(slot, doc.workspaceId);
    this.#types.set(slot, doc.type);
  }

  /** Ids of the indexed documents not in `keep`, removed. */
  retain(keep: ReadonlySet<string>): void {
    for (const id of [...this.#slots.keys()]) if (!keep.has(id)) this.remove(id);
  }

  async snapshot(): Promise<IndexSnapshot> {
    const flex: [string, string][] = [];
    // FlexSearch waits for a returned promise before the next chunk: searches run in between.
    const bodyTerms = await this.#bodies.export((key, data) => {
      flex.push([key, data]);
      return new Promise<void>((resolve) => setImmediate(resolve));
    });
    const docs = [...this.#slots.values()].map((slot) => {
      const { doc, plainBody } = this.#entries[slot]!;
      return { ...doc, plainBody, slot };
    });
    return { docs, flex, bodyTerms };
  }

  /** The index a snapshot was taken of, without indexing anything again. */
  static fromSnapshot(snapshot: IndexSnapshot): OrgSearchIndex {
    const index = new OrgSearchIndex();
    index.#bodies = BodyIndex.restore(snapshot.flex, snapshot.bodyTerms);
    for (const { plainBody, slot, ...doc } of snapshot.docs) {
      index.#slots.set(doc.id, slot);
      index.#titles.set(slot, titleTermsOf(index.#encoder, doc.title), normalizeText(doc.title));
      index.#entries[slot] = { doc, plainBody };
      index.#label(slot, doc);
    }
    return index;
  }

  remove(id: string): void {
    const slot = this.#slots.get(id);
    if (slot === undefined) return;
    this.#slots.delete(id);
    this.#entries[slot] = undefined;
    this.#workspaces.clear(slot);
    this.#types.clear(slot);
    this.#bodies.remove(slot);
    this.#titles.remove(slot);
  }

  /** See match-ranges.ts. */
  matchRanges(query: string, text: string): [number, number][] {
    return matchRanges(this.#encoder, this.#encodeWord, query, text);
  }

  /**
   * Best first; equal scores by title, then id. Throws InvalidInputError for an empty query or bad limit.
   * Titles the query reaches are scored best bound first until no unscored one can outrank the
   * results; bodies are fetched only when a document matching in its body alone still could.
   */
  search(q: SearchQuery): SearchHit[] {
    const query = parseQuery(this.#encoder, q);
    if (query.terms.length === 0) return [];
    const top = new TopItems<Scored>(q.limit, byRank);
    const consider = this.#scorer(q, query, top);
    // A document that could at best tie the last kept one is not scored: ties at the cut go by
    // retrieval order, so that a common word does not score every title it starts.
    const worst = () => top.worst?.score ?? -1;
    const outranks = (bound: number) => worst() >= bound;
    const termCount = query.terms.length;
    const bodiesAtBest = this.#bodiesAtBest(query.terms);
    const titleQuery = {
      terms: query.terms,
      normalized: query.normalized,
      bound: scaledBound(termCount),
      bodiesAtBest,
      bodyHolders: () => query.terms.slice(0, MASK_BITS).map((term) => this.#bodies.holders(term, this.#entries.length)),
    };
    let titlesLeft = Math.max(MIN_TITLE_CANDIDATES, q.limit * TITLE_CANDIDATES_PER_RESULT);
    this.#titles.visitByBound(titleQuery, worst, (slot, bound) => {
      if (outranks(bound) || titlesLeft === 0) return false;
      if (consider(slot)) titlesLeft -= 1;
      return true;
    });
    if (!outranks(bodyOnlyBound(termCount, bodiesAtBest))) this.#considerBodies(query.terms, q.limit, consider);
    return top.items.map(({ candidate, score }) => ({
      id: candidate.doc.id,
      type: candidate.doc.type,
      title: candidate.doc.title,
      workspaceId: candidate.doc.workspaceId,
      preview: buildPreview(candidate, query.terms),
      score,
    }));
  }

  /** The query terms some body may hold whole, and holds whole or as the start of a word (one bit each). */
  #bodiesAtBest(terms: readonly string[]): TermMasks {
    let whole = 0;
    let any = 0;
    terms.forEach((term, index) => {
      const match = this.#bodies.bestMatch(term);
      if (match === 'whole') whole |= termBit(index);
      if (match === 'whole' || this.#bodies.mayHold(term)) any |= termBit(index);
    });
    return { whole, any };
  }

  /**
   * Scores a slot into `top` once, if the caller may see it (filters apply before the limit);
   * says whether the caller may.
   */
  #scorer(q: SearchQuery, query: ParsedQuery, top: TopItems<Scored>): (slot: number) => boolean {
    const inWorkspace = this.#workspaces.admitting(q.workspaceIds);
    const ofType = q.types?.length ? this.#types.admitting(q.types) : undefined;
    const scored = new Set<number>();
    return (slot) => {
      if (!inWorkspace(slot) || (ofType && !ofType(slot))) return false;
      if (!scored.has(slot)) {
        scored.add(slot);
        const entry = this.#entries[slot]!;
        const candidate = (entry.analyzed ??= analyzeDocument(this.#encoder, this.#encodeWord, entry.doc, entry.plainBody));
        top.add({ candidate, score: scoreDocument(candidate, query) });
      }
      return true;
    };
  }

  /** FlexSearch's best bodies, the fetch widened while filters leave too few of them. */
  #considerBodies(terms: readonly string[], limit: number, consider: (slot: number) => boolean): void {
    const wanted = bodyCandidateLimit(limit);
    for (let fetch = wanted; ; fetch *= BODY_GROWTH) {
      const { ids, truncated } = this.#bodies.candidates(terms, fetch);
      let admissible = 0;
      for (const slot of ids) if (consider(slot)) admissible += 1;
      if (!truncated || admissible >= wanted || fetch >= this.#slots.size) return;
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
