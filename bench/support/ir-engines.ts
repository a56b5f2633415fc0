import Database from 'better-sqlite3';
import MiniSearch from 'minisearch';
import type { IrCollection } from './ir-collection.js';

/** A search engine under measurement: the ids of the collection's documents for a query, best first. */
export interface RankingEngine {
  readonly name: string;
  search(query: string, limit: number): Promise<readonly string[]>;
  /** How the documents were loaded, when there is more to say than the time it took. */
  readonly loadDetail?: string;
  close?(): Promise<void>;
}

/** Builds an engine over a collection's documents. */
export type OpenEngine = (collection: IrCollection) => Promise<RankingEngine>;

/** The words of a text, as letters and digits. */
export const alphanumericWords = (text: string): string[] => text.match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * SQLite FTS5 with the porter stemmer over unicode61 tokens, ranked by its bm25() over title
 * and body (weights 1 and 1). The query is its words, each quoted so that none is FTS5 syntax,
 * joined with OR.
 */
export const openFts5Porter: OpenEngine = async (collection) => {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(title, body, tokenize = 'porter unicode61')`);
  const insert = db.prepare('INSERT INTO t (rowid, title, body) VALUES (?, ?, ?)');
  const rowIds = new Map<number, string>();
  db.transaction(() => {
    collection.documents.forEach((doc, row) => {
      insert.run(row + 1, doc.title, doc.text);
      rowIds.set(row + 1, doc.id);
    });
  })();
  const select = db.prepare<[string, number], { rowid: number }>(
    'SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT ?',
  );
  return {
    name: 'fts5-porter',
    async search(query, limit) {
      const words = alphanumericWords(query);
      if (!words.length) return [];
      const match = words.map((word) => `"${word}"`).join(' OR ');
      return select.all(match, limit).map((row) => rowIds.get(row.rowid)!);
    },
    async close() {
      db.close();
    },
  };
};

/** MiniSearch with its defaults (BM25+, its tokenizer and lower-casing, no stemming) over title and text, words joined with OR. */
export const openMiniSearch: OpenEngine = async (collection) => {
  const index = new MiniSearch<{ id: string; title: string; text: string }>({ fields: ['title', 'text'] });
  index.addAll(collection.documents.map((doc) => ({ id: doc.id, title: doc.title, text: doc.text })));
  return {
    name: 'minisearch',
    async search(query, limit) {
      return index
        .search(query, { combineWith: 'OR' })
        .slice(0, limit)
        .map((result) => String(result.id));
    },
  };
};
