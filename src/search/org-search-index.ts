import type { Document, Encoder } from 'flexsearch';
import { analyzeDocument, createWordEncoder, type AnalyzedDocument } from './analyze-document.js';
import { buildPreview } from './build-preview.js';
import { createTextEncoder } from './encoder.js';
import { createFlexIndex, searchCandidates, type FlexDocument } from './flex-index.js';
import { parseQuery } from './parse-query.js';
import { scoreDocument } from './score-document.js';
import type { IndexedDocument, SearchHit, SearchQuery } from './types.js';

/**
 * Candidates fetched per field before ranking: FlexSearch's order decides who is considered,
 * our score decides the order, so look well past the requested limit.
 */
const MIN_CANDIDATES = 100;
const CANDIDATES_PER_RESULT = 4;
const CANDIDATE_GROWTH = 4;

/** The search index of one organization: FlexSearch for retrieval, our scoring for ranking. */
export class OrgSearchIndex {
  readonly #encoder: Encoder = createTextEncoder();
  readonly #encodeWord = createWordEncoder(this.#encoder);
  readonly #flex: Document<FlexDocument> = createFlexIndex(this.#encoder);
  readonly #docs = new Map<string, AnalyzedDocument>();

  get size(): number {
    return this.#docs.size;
  }

  upsert(doc: IndexedDocument): void {
    const analyzed = analyzeDocument(this.#encoder, this.#encodeWord, doc);
    // Plain text, so link targets and markdown markers are neither found nor ranked.
    const entry: FlexDocument = { id: doc.id, title: doc.title, body: analyzed.plainBody };
    if (this.#docs.has(doc.id)) this.#flex.update(entry);
    else this.#flex.add(entry);
    this.#docs.set(doc.id, analyzed);
  }

  remove(id: string): void {
    if (!this.#docs.delete(id)) return;
    this.#flex.remove(id);
  }

  /** Best first; ties by title, then id. Throws InvalidInputError for an empty query or bad limit. */
  search(q: SearchQuery): SearchHit[] {
    const query = parseQuery(this.#encoder, q);
    if (query.terms.length === 0) return [];
    return this.#admissibleCandidates(query.text, q)
      .map((candidate) => ({ candidate, score: scoreDocument(candidate, query) }))
      .sort(
        (a, b) =>
          b.score - a.score ||
          compare(a.candidate.sortTitle, b.candidate.sortTitle) ||
          compare(a.candidate.doc.id, b.candidate.doc.id),
      )
      .slice(0, q.limit)
      .map(({ candidate, score }) => ({
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
    const wanted = Math.max(MIN_CANDIDATES, q.limit * CANDIDATES_PER_RESULT);
    const types = q.types?.length ? new Set(q.types) : null;
    for (let fetch = wanted; ; fetch *= CANDIDATE_GROWTH) {
      const { ids, truncated } = searchCandidates(this.#flex, text, fetch);
      const admissible: AnalyzedDocument[] = [];
      for (const id of ids) {
        const candidate = this.#docs.get(id);
        if (!candidate || !q.workspaceIds.has(candidate.doc.workspaceId)) continue;
        if (types && !types.has(candidate.doc.type)) continue;
        admissible.push(candidate);
      }
      if (!truncated || admissible.length >= wanted || fetch >= this.#docs.size) return admissible;
    }
  }
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
