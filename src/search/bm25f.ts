/**
 * BM25F (Robertson, Zaragoza and Taylor, "Simple BM25 extension to multiple weighted fields",
 * 2004) over two fields: the title (with the aliases, see org-search-index.ts), and the whole
 * document (title and body). A term's frequency in each field is normalized by that field's
 * length against its average, weighted, summed, and only then saturated, so a title match is
 * worth more without a term counting twice as often.
 *
 * Parameters were chosen on the CISI collection and checked on CACM (`npm run bench -- relevance`).
 */
export const BM25F = {
  /** Term-frequency saturation: how soon more occurrences stop adding. */
  k1: 1.2,
  title: { weight: 2, b: 0.5 },
  document: { weight: 1, b: 0.75 },
} as const;

export interface FieldParameters {
  readonly weight: number;
  readonly b: number;
}

/**
 * Rarity of a term held by `df` of `n` documents: Robertson and Spärck Jones's, as SQLite FTS5
 * computes it, a term in most documents all but ignored. Lucene's `1 +` form, which keeps such
 * terms, recalled less on CISI (recall@50 0.315 against 0.336).
 */
export const idf = (n: number, df: number): number => Math.max(MIN_IDF, Math.log((n - df + 0.5) / (df + 0.5)));

/** FTS5's floor: a term in more than half the documents still finds them, with almost no weight. */
const MIN_IDF = 1e-6;

/** A value per field. */
export interface Fields {
  readonly title: number;
  readonly document: number;
}

/** A field's weighted, length-normalized term frequency. */
const fieldFrequency = (field: FieldParameters, tf: number, length: number, averageLength: number): number =>
  (field.weight * tf) / (1 - field.b + (field.b * length) / averageLength);

/**
 * A term's weight in one document before its rarity, in [0, 1): the fields' normalized
 * frequencies summed, then saturated. A document's score is the sum over the query's terms of
 * idf × impact.
 */
export function termImpact(tf: Fields, length: Fields, average: Fields): number {
  const frequency =
    fieldFrequency(BM25F.title, tf.title, length.title, average.title) +
    fieldFrequency(BM25F.document, tf.document, length.document, average.document);
  return frequency / (BM25F.k1 + frequency);
}
