import { pathToFileURL } from 'node:url';
import { loadCollection, type IrCollection } from './support/ir-collection.js';
import { openFts5Porter, openMiniSearch, type OpenEngine, type RankingEngine } from './support/ir-engines.js';
import { averagePrecisionAt, mean, ndcgAt, recallAt } from './support/ir-metrics.js';
import { openSpecbase } from './support/ir-specbase.js';
import { runKnownItemBench } from './known-item.js';
import { median } from './support/stats.js';
import { contentWords } from './support/stopwords.js';

/**
 * Ranking quality of Specbase's search on two judged test collections (bench/data/ir: CISI and
 * CACM), beside SQLite FTS5 (porter stemmer, bm25) and MiniSearch (BM25+) on the same documents
 * and queries in the same run. Every judged query is asked as written and as its content words
 * (NLTK's English stopwords removed); each engine returns its top 50. Figures are means over
 * the judged queries: nDCG@10, MAP@50 (average precision of the top 50, over all relevant
 * documents), recall at 10 and 50, each also as a ratio to FTS5 on the same variant, and the
 * mean time of one search. Then known-item search on real documentation (known-item.ts).
 */
const DATA = new URL('./data/ir/', import.meta.url);
const COLLECTIONS = [
  { name: 'CISI', documents: 'cisi/CISI.ALL', queries: 'cisi/CISI.QRY', judgments: 'cisi/CISI.REL' },
  { name: 'CACM', documents: 'cacm/cacm.all', queries: 'cacm/query.text', judgments: 'cacm/qrels.text' },
];
/** One line per engine; the first is the baseline the ratios are to. */
const ENGINES: OpenEngine[] = [openFts5Porter, openMiniSearch, openSpecbase];
const VARIANTS: { name: string; of: (query: string) => string }[] = [
  { name: 'as written', of: (query) => query },
  { name: 'content words', of: contentWords },
];
const LIMIT = 50;
/** Where today's search stops reading a query; shown so that the figures can be read against it. */
const LONG_QUERY = { words: 24, chars: 256 };

const METRICS = [
  { name: 'nDCG@10', of: (ranked: readonly string[], relevant: ReadonlySet<string>) => ndcgAt(ranked, relevant, 10) },
  {
    name: 'MAP@50',
    of: (ranked: readonly string[], relevant: ReadonlySet<string>) => averagePrecisionAt(ranked, relevant, 50),
  },
  { name: 'R@10', of: (ranked: readonly string[], relevant: ReadonlySet<string>) => recallAt(ranked, relevant, 10) },
  { name: 'R@50', of: (ranked: readonly string[], relevant: ReadonlySet<string>) => recallAt(ranked, relevant, 50) },
];

interface Row {
  readonly engine: string;
  readonly variant: string;
  /** Mean over the judged queries, in METRICS order. */
  readonly scores: number[];
  readonly meanMs: number;
  /** Mean number of results a query got (at most LIMIT). */
  readonly meanResults: number;
}

export async function runRelevanceBench(): Promise<void> {
  for (const files of COLLECTIONS) {
    const collection = loadCollection(files.name, {
      documents: new URL(files.documents, DATA),
      queries: new URL(files.queries, DATA),
      judgments: new URL(files.judgments, DATA),
    });
    await benchCollection(collection);
  }
  await runKnownItemBench();
}

async function benchCollection(collection: IrCollection): Promise<void> {
  const pairs = [...collection.relevant.values()].reduce((n, docs) => n + docs.size, 0);
  console.log(
    `\n${collection.name}: ${collection.documents.length} documents (${collection.documents.filter((doc) => !doc.text).length} title only), ` +
      `${collection.queries.length} judged queries of ${collection.queriesInFile}, ${pairs} relevant pairs` +
      `${collection.missingDocuments ? ` (${collection.missingDocuments} of unknown documents)` : ''}, top ${LIMIT}, node ${process.version}`,
  );
  for (const variant of VARIANTS) {
    const texts = collection.queries.map((query) => variant.of(query.text));
    const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
    const long = (text: string) => words(text) > LONG_QUERY.words;
    console.log(
      `  queries ${variant.name}: median ${median(texts.map(words))} words; ` +
        `${texts.filter(long).length} over ${LONG_QUERY.words} words, ${texts.filter((text) => text.length > LONG_QUERY.chars).length} over ${LONG_QUERY.chars} characters`,
    );
  }
  const engines: RankingEngine[] = [];
  try {
    for (const open of ENGINES) {
      const start = performance.now();
      const engine = await open(collection);
      engines.push(engine);
      console.log(
        `  load ${engine.name}: ${(performance.now() - start).toFixed(0)} ms${engine.loadDetail ? ` (${engine.loadDetail})` : ''}`,
      );
    }
    const rows: Row[] = [];
    for (const variant of VARIANTS) {
      for (const engine of engines) rows.push(await measure(collection, engine, variant));
    }
    console.log(table(rows));
  } finally {
    for (const engine of engines) await engine.close?.();
  }
}

async function measure(
  collection: IrCollection,
  engine: RankingEngine,
  variant: (typeof VARIANTS)[number],
): Promise<Row> {
  const known = new Set(collection.documents.map((doc) => doc.id));
  const perQuery: number[][] = METRICS.map(() => []);
  const times: number[] = [];
  const counts: number[] = [];
  for (const query of collection.queries) {
    const text = variant.of(query.text);
    const start = performance.now();
    const ranked = text.trim() ? await engine.search(text, LIMIT) : [];
    times.push(performance.now() - start);
    counts.push(ranked.length);
    const stray = ranked.find((id) => !known.has(id));
    if (stray !== undefined) throw new Error(`${engine.name} returned ${stray}, not a document of ${collection.name}`);
    const relevant = collection.relevant.get(query.id)!;
    METRICS.forEach((metric, m) => perQuery[m]!.push(metric.of(ranked, relevant)));
  }
  return {
    engine: engine.name,
    variant: variant.name,
    scores: perQuery.map(mean),
    meanMs: mean(times),
    meanResults: mean(counts),
  };
}

function table(rows: readonly Row[]): string {
  const baseline = (variant: string) => rows.find((row) => row.variant === variant)!;
  const header = [
    'engine'.padEnd(12),
    'variant'.padEnd(14),
    ...METRICS.map((metric) => metric.name.padStart(15)),
    'mean ms'.padStart(9),
    'results'.padStart(8),
  ];
  const lines = rows.map((row) => {
    const base = baseline(row.variant);
    const cells = row.scores.map((score, m) =>
      `${score.toFixed(3)} (${(score / base.scores[m]!).toFixed(2)}x)`.padStart(15),
    );
    return [
      '  ',
      row.engine.padEnd(12),
      row.variant.padEnd(14),
      ...cells,
      row.meanMs.toFixed(2).padStart(9),
      row.meanResults.toFixed(1).padStart(8),
    ].join(' ');
  });
  return [`  ratios are to ${rows[0]!.engine} on the same variant`, ['  ', ...header].join(' '), ...lines].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runRelevanceBench();
}
