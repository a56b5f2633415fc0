import { statedAliases } from '../artifacts/index.js';
import { analyzeDocument, documentTerms, plainBodyOf, type AnalyzedDocument } from './analyze-document.js';
import { termCounts, termsOf } from './analyzer.js';
import { idf, termImpact } from './bm25f.js';
import { buildPreview, queryWordsOf } from './build-preview.js';
import { ImpactIndex } from './impact-index.js';
import { parseQuery, type ParsedQuery } from './parse-query.js';
import { proximityScore } from './proximity.js';
import { Accumulators, bestByImpact, POSTINGS_BUDGET, type QueryTerm, type Scored } from './score-at-a-time.js';
import { TopItems } from './select-top.js';
import { SlotLabels } from './slot-labels.js';
import { TitleIndex } from './title-index.js';
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
/**
 * What a whole-title match adds, as a share of the query's rarity: the query's words once more,
 * at full weight. BM25F alone stays below that share and proximity adds at most a quarter of it,
 * so the document whose title (or alias) the query is ranks first, and equal names by BM25F among them.
 */
const TITLE_MATCH_WEIGHT = 1;
/**
 * Documents scored exactly by BM25F and proximity: the best by impact, this many beyond the
 * limit, and at least POOL_MIN, so that the exact score can reorder those an impact's 1/64
 * steps or an unread posting put just out of place.
 */
const POOL_EXTRA = 10;
const POOL_MIN = 20;
/** Documents whose positions are kept between searches; the memo starts over past this many. */
const MAX_ANALYZED = 20_000;
/** Below this a found document would score 0, which the contract forbids. */
const MIN_SCORE = 0.001;

/** A document as indexed: its facts, the plain text previews are cut from, and its aliases. */
interface Entry {
  readonly doc: DocumentFacts;
  readonly plainBody: string;
  /** What the body's `**Aliases:**` line says; kept because the line cannot be found in the plain text again. */
  readonly aliases: readonly string[];
}

/** Shared by the many documents without aliases. */
const NO_ALIASES: readonly string[] = Object.freeze([]);

/** An index as saved: what it knows of each document (with its slot and field lengths), and FlexSearch's export. */
export interface IndexSnapshot {
  readonly docs: readonly (DocumentFacts & {
    readonly plainBody: string;
    /** Left out when there are none. */
    readonly aliases?: readonly string[];
    readonly slot: number;
    readonly titleLength: number;
    readonly documentLength: number;
  })[];
  readonly flex: readonly (readonly [key: string, data: string])[];
}

/**
 * The search index of one organization. FlexSearch finds the documents holding each query term,
 * best first: its postings are filed by each term's BM25F impact (impact-index.ts). Candidates
 * are read best impact first until no unread document could rank or a postings budget is spent
 * (score-at-a-time.ts); the best of them, and any document whose whole title or an alias the
 * query is (title-index.ts), are then scored exactly by BM25F (bm25f.ts) with how close the query's terms
 * stand (proximity.ts) and a whole-title match.
 */
export interface OrgSearchIndexOptions {
  /** Postings a search reads at most once it holds enough candidates (see score-at-a-time.ts); Infinity reads them all. */
  readonly postingsBudget?: number;
}

export class OrgSearchIndex {
  readonly #postingsBudget: number;
  #index = new ImpactIndex();
  readonly #vocabulary = new Vocabulary();
  /** Each document's slot: its id in FlexSearch and its place in `#entries`, kept while it is indexed. */
  readonly #slots = new Map<string, number>();
  readonly #entries: (Entry | undefined)[] = [];
  readonly #analyzed = new Map<number, AnalyzedDocument>();
  readonly #accumulators = new Accumulators();
  /** Each slot's workspace and type, for a search's filters. */
  readonly #workspaces = new SlotLabels();
  readonly #types = new SlotLabels();
  readonly #titles = new TitleIndex();

  constructor(options: OrgSearchIndexOptions = {}) {
    this.#postingsBudget = options.postingsBudget ?? POSTINGS_BUDGET;
  }

  get size(): number {
    return this.#slots.size;
  }

  upsert(doc: IndexedDocument): void {
    const plainBody = plainBodyOf(doc.body);
    const aliases = statedAliases(doc.body);
    const known = this.#slots.get(doc.id);
    const slot = known ?? this.#entries.length;
    if (known !== undefined) this.#unindex(slot);
    const terms = documentTerms(doc.title, aliases, plainBody);
    const wholeDocument = [...terms.title, ...terms.body];
    const counts = termCounts(wholeDocument);
    for (const term of counts.keys()) this.#vocabulary.add(term);
    // An alias is another title: its terms count in the title field too (the body holds them
    // already, on the aliases line, so the whole document counts them once).
    const titleField = aliases.length > 0 ? [...terms.title, ...terms.aliases.flat()] : terms.title;
    this.#index.add(slot, {
      title: termCounts(titleField),
      document: counts,
      length: { title: titleField.length, document: wholeDocument.length },
    });
    const { body: _body, ...facts } = doc;
    this.#slots.set(doc.id, slot);
    this.#entries[slot] = { doc: facts, plainBody, aliases: aliases.length > 0 ? aliases : NO_ALIASES };
    this.#label(slot, facts, [terms.title, ...terms.aliases]);
  }

  remove(id: string): void {
    const slot = this.#slots.get(id);
    if (slot === undefined) return;
    this.#unindex(slot);
    this.#slots.delete(id);
    this.#entries[slot] = undefined;
    this.#workspaces.clear(slot);
    this.#types.clear(slot);
    this.#titles.remove(slot);
  }

  /** Ids of the indexed documents not in `keep`, removed. */
  retain(keep: ReadonlySet<string>): void {
    for (const id of [...this.#slots.keys()]) if (!keep.has(id)) this.remove(id);
  }

  #unindex(slot: number): void {
    this.#index.remove(slot);
    this.#analyzed.delete(slot);
  }

  /** `names`: the title's terms, then each alias's. */
  #label(slot: number, doc: DocumentFacts, names: readonly (readonly string[])[]): void {
    this.#workspaces.set(slot, doc.workspaceId);
    this.#types.set(slot, doc.type);
    this.#titles.set(slot, names);
  }

  async snapshot(): Promise<IndexSnapshot> {
    const flex: [string, string][] = [];
    // FlexSearch waits for a returned promise before the next chunk: searches run in between.
    await this.#index.export((key, data) => {
      flex.push([key, data]);
      return new Promise<void>((resolve) => setImmediate(resolve));
    });
    const docs = [...this.#slots.values()].map((slot) => {
      const { doc, plainBody, aliases } = this.#entries[slot]!;
      const length = this.#index.lengthsOf(slot);
      return {
        ...doc,
        plainBody,
        ...(aliases.length > 0 ? { aliases } : {}),
        slot,
        titleLength: length.title,
        documentLength: length.document,
      };
    });
    return { docs, flex };
  }

  /** The index a snapshot was taken of, without analyzing any document again. */
  static fromSnapshot(snapshot: IndexSnapshot): OrgSearchIndex {
    const index = new OrgSearchIndex();
    index.#index = ImpactIndex.restore(
      snapshot.flex,
      new Map(snapshot.docs.map((doc) => [doc.slot, { title: doc.titleLength, document: doc.documentLength }])),
    );
    for (const term of index.#index.terms()) index.#vocabulary.add(term);
    for (const {
      plainBody,
      aliases = NO_ALIASES,
      slot,
      titleLength: _title,
      documentLength: _document,
      ...doc
    } of snapshot.docs) {
      index.#slots.set(doc.id, slot);
      index.#entries[slot] = { doc, plainBody, aliases };
      index.#label(slot, doc, [termsOf(doc.title), ...aliases.map(termsOf)]);
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
    const inWorkspace = this.#workspaces.admitting(q.workspaceIds);
    const ofType = q.types?.length ? this.#types.admitting(q.types) : undefined;
    const admits = (slot: number) => inWorkspace(slot) && (!ofType || ofType(slot));
    const pool = bestByImpact(this.#index, terms, {
      size: Math.max(q.limit + POOL_EXTRA, POOL_MIN),
      admits,
      scratch: this.#accumulators.reserve(this.#entries.length),
      postingsBudget: this.#postingsBudget,
    }).map(({ slot }) => slot);
    // The documents the query names by their whole title or an alias are candidates whatever their impact.
    const named = this.#titles.holding(parsed.titleKey).filter(admits);
    for (const slot of named) if (!pool.includes(slot)) pool.push(slot);
    const idfs = terms.map((term) => term.idf);
    const totalIdf = idfs.reduce((sum, value) => sum + value, 0);
    // The score is a share of what the query could add: its words, and a title it names when one does.
    const most = totalIdf * (named.length > 0 ? 1 + TITLE_MATCH_WEIGHT : 1);
    const ranked = new TopItems<Scored>(q.limit, this.#byRank);
    for (const slot of pool) {
      const proximity = terms.length > 1 ? proximityScore(this.#positions(slot, terms), idfs) : 0;
      const titleMatch = named.includes(slot) ? TITLE_MATCH_WEIGHT * totalIdf : 0;
      ranked.add({
        slot,
        score: score((this.#exactScore(slot, terms) + PROXIMITY_WEIGHT * proximity + titleMatch) / most),
      });
    }
    const queryWords = queryWordsOf(terms);
    const hits = ranked.items.map(({ slot, score }): SearchHit => {
      const { doc } = this.#entries[slot]!;
      return {
        id: doc.id,
        type: doc.type,
        title: doc.title,
        workspaceId: doc.workspaceId,
        preview: buildPreview(this.#analysis(slot), queryWords),
        score,
      };
    });
    return { hits, ...(notice ? { notice } : {}) };
  }

  /** Higher score first; equal scores by the more recently changed, then by id. */
  readonly #byRank = (a: Scored, b: Scored): number => {
    if (a.score !== b.score) return b.score - a.score;
    const first = this.#entries[a.slot]!.doc;
    const second = this.#entries[b.slot]!.doc;
    return compare(second.updatedAt, first.updatedAt) || compare(first.id, second.id);
  };

  /** The query's terms, rarest first, each with its words: a prefix also stands for the longer words it starts. */
  #queryTerms(parsed: ParsedQuery): QueryTerm[] {
    const words = new Map<string, { word: string; weight: number }[]>(
      [...parsed.terms.keys()].map((term) => [term, [{ word: term, weight: 1 }]]),
    );
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
    const found: QueryTerm[] = [];
    for (const [term, group] of words) {
      // A term counts as rare as its most frequent word; one no document holds is left out.
      const frequency = Math.max(...group.map(({ word }) => this.#index.documentFrequency(word)));
      if (frequency > 0) found.push({ words: group, idf: (parsed.terms.get(term) ?? 1) * idf(documents, frequency) });
    }
    return found.sort((a, b) => b.idf - a.idf);
  }

  /** BM25F with the index's current averages: each term's words' frequencies, weighted, in each field, then its impact. */
  #exactScore(slot: number, terms: readonly QueryTerm[]): number {
    const { positions, titleTerms, aliasTerms } = this.#analysis(slot);
    const length = this.#index.lengthsOf(slot);
    const average = this.#index.averages();
    let total = 0;
    for (const term of terms) {
      let title = 0;
      let document = 0;
      for (const { word, weight } of term.words) {
        const at = positions.get(word);
        if (!at) continue;
        document += weight * at.length;
        // Positions ascend, the title's first.
        for (const position of at) {
          if (position >= titleTerms) break;
          title += weight;
        }
        title += weight * (aliasTerms.get(word) ?? 0);
      }
      if (document > 0) total += term.idf * termImpact({ title, document }, length, average);
    }
    return total;
  }

  /** Per query term, where its words occur in the document (merged, in order). */
  #positions(slot: number, terms: readonly QueryTerm[]): (readonly number[])[] {
    const { positions } = this.#analysis(slot);
    return terms.map(({ words }) =>
      words.length === 1
        ? (positions.get(words[0]!.word) ?? [])
        : words.flatMap(({ word }) => positions.get(word) ?? []).sort((a, b) => a - b),
    );
  }

  #analysis(slot: number): AnalyzedDocument {
    let analyzed = this.#analyzed.get(slot);
    if (!analyzed) {
      const entry = this.#entries[slot]!;
      analyzed = analyzeDocument(entry.doc, entry.plainBody, entry.aliases);
      if (this.#analyzed.size >= MAX_ANALYZED) this.#analyzed.clear();
      this.#analyzed.set(slot, analyzed);
    }
    return analyzed;
  }
}

/** In (0, 1], to six decimals: stable across platforms, so equal matches tie and the tie-break decides. */
const score = (share: number): number => Math.max(MIN_SCORE, Math.min(1, Math.round(share * 1e6) / 1e6));

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
