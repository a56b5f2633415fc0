import { pathToFileURL } from 'node:url';
import { OrgSearchIndex, type IndexedDocument } from '../src/search/index.js';
import { CORPUS_SEED, CORPUS_WORKSPACES, generateCorpus, seededRandom } from '../test/support/corpus.js';
import { rawFlexIndex, type RawDocument } from './support/raw-flex.js';
import { benchSizes } from './support/stats.js';

/**
 * Our search (retrieval + scoring + filters + previews) against raw FlexSearch indexing title
 * and body (support/raw-flex.ts) on the same artifacts and queries, at 10,000 and 100,000 artifacts
 * (the corpus the MCP bench's organizations hold). Target: p50 and p95 within 1.5x of raw
 * retrieval. The mean shows where a size's time goes: at 100,000 a few queries of common
 * words cost FlexSearch itself milliseconds. A second set measures prefix search where a
 * prefix starts many words: the same corpus with invented words added to every body, and
 * queries made of prefixes of its words.
 */
const CORPUS_SIZE = 10_000;
const SIZES = benchSizes([CORPUS_SIZE, 100_000], [1_000]);
const ROUNDS = 20;
const LIMIT = 10;
/** A window of candidates such as a re-ranker over FlexSearch's own order would take. */
const CANDIDATES = { title: 300, body: 100 };

/** Questions of 20 words, as an assistant asks them in a conversation: mostly common words, a few rare. */
export const QUESTIONS = [
  'How does a guest shopper get a refund for a failed payment when the order was cancelled before the delivery?',
  'What happens to the loyalty points balance when a customer returns part of an order paid with a coupon?',
  'Which role permissions does an admin need to export the audit log and review every session token of the team?',
  'When should the system send a push notification or an email to confirm a delayed shipment to the shopper?',
  'How are tax and currency conversion calculated on an international invoice for a recurring monthly subscription with a discount?',
  'What must the merchant dashboard show about fraud detection rules and risk limits before a seller can get paid?',
  'Can a support agent restore an archived ticket and share the chat with a partner without breaking data privacy consent?',
  'What latency and availability should search and filter meet on mobile for shoppers with a screen reader in dark mode?',
];

export const QUERIES = [
  'checkout',
  'payment',
  'refund',
  'notifications',
  'onboarding',
  'invoice',
  'subscription',
  'search',
  'guest checkout',
  'payment method',
  'refund policy',
  'email notification',
  'password reset',
  'order confirmation email',
  'saved card payment',
  'mobile push notification opt-in',
  'notif',
  'subscr',
  'pay',
  'onb',
  'Checkout Page',
  'Payments!',
  '3-D Secure authentication',
  'delivery address autocomplete',
  'tax calculation for invoices',
  'audit log export',
  'single sign-on',
  'role permissions admin',
  'latency under two seconds',
  'accessibility screen reader',
  'warehouse',
  'loyalty points balance',
  'currency conversion',
  'fraud detection rules',
  'data retention',
  'webhook retries',
  'rate limit',
  'dark mode',
  'bulk import csv',
  'zzzz nothing',
];

/** Syllables of the invented words: few, so that a short prefix starts hundreds of words. */
const SYLLABLES = ['pa', 'pro', 'con', 'tri', 'mer', 'lo', 'ven', 'sta', 'qui', 'dor', 'ble', 'na', 'sen', 'tor', 'ix'];
const INVENTED_WORDS = 20_000;
const INVENTED_PER_BODY = 12;

/** The corpus with a paragraph of invented words added to every body: a vocabulary of thousands of words sharing prefixes. */
function withRichVocabulary(docs: readonly IndexedDocument[], seed = CORPUS_SEED): IndexedDocument[] {
  const random = seededRandom(seed + 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const words = Array.from({ length: INVENTED_WORDS }, () =>
    Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(SYLLABLES)).join(''),
  );
  return docs.map((doc) => ({
    ...doc,
    body: `${doc.body}\n${Array.from({ length: INVENTED_PER_BODY }, () => pick(words)).join(' ')}.\n`,
  }));
}

/** Prefixes of 2-5 letters of the corpus's words, alone and followed by a whole word. */
function prefixQueries(docs: readonly IndexedDocument[], seed = CORPUS_SEED): string[] {
  const random = seededRandom(seed + 2);
  const words = [...new Set(docs.flatMap((doc) => doc.body.toLowerCase().match(/[a-z]{4,}/g) ?? []))].sort();
  const pick = (): string => words[Math.floor(random() * words.length)]!;
  const prefix = (word: string): string => word.slice(0, 2 + Math.floor(random() * 4));
  return [
    ...Array.from({ length: 60 }, () => prefix(pick())),
    ...Array.from({ length: 40 }, () => `${prefix(pick())} ${pick()}`),
  ];
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

function timeIt(action: () => unknown): number {
  const started = process.hrtime.bigint();
  action();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

interface Timings {
  p50: number;
  p95: number;
  mean: number;
}
const summarize = (samples: number[]): Timings => {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    mean: samples.reduce((a, b) => a + b, 0) / samples.length,
  };
};

/** Ours against the same index reading every posting (exhaustive BM25F over the holders, then the same exact scoring). */
function exhaustiveAgreement(
  ours: OrgSearchIndex,
  docs: readonly IndexedDocument[],
  queries: readonly string[],
): { same: number; overlap: number } {
  const everything = new OrgSearchIndex({ postingsBudget: Infinity });
  for (const doc of docs) everything.upsert(doc);
  const workspaceIds = new Set(CORPUS_WORKSPACES);
  let same = 0;
  let shared = 0;
  let total = 0;
  for (const query of queries) {
    const got = ours.search({ query, workspaceIds, limit: LIMIT }).hits.map((hit) => hit.id);
    const want = everything.search({ query, workspaceIds, limit: LIMIT }).hits.map((hit) => hit.id);
    if (got.join() === want.join()) same += 1;
    shared += got.filter((id) => want.includes(id)).length;
    total += want.length;
  }
  return { same, overlap: total === 0 ? 1 : shared / total };
}

export async function runSearchBench(): Promise<void> {
  for (const size of SIZES) benchSize(size);
}

function benchSize(size: number): void {
  const docs = generateCorpus(size);
  console.log(
    [
      `search bench: ${docs.length} artifacts, ${QUERIES.length} queries x ${ROUNDS} rounds, limit ${LIMIT}, node ${process.version}`,
      ...measureQueries(docs, QUERIES, '  (target <= 1.5)'),
      `questions of about 20 words (${QUESTIONS.length}):`,
      ...measureQueries(docs, QUESTIONS, '').map((line) => `  ${line}`),
    ].join('\n'),
  );
  const rich = withRichVocabulary(docs);
  const queries = prefixQueries(rich);
  console.log(
    [
      `prefix search, ${rich.length} artifacts with ${INVENTED_PER_BODY} invented words added to each body, ${queries.length} prefix queries x ${ROUNDS} rounds:`,
      ...measureQueries(rich, queries, '').map((line) => `  ${line}`),
    ].join('\n'),
  );
}

/**
 * Builds ours and the raw baseline over `docs`, times `queries` on both, and checks ours against
 * reading every posting (no postings budget): how often the top results are the same.
 */
function measureQueries(docs: readonly IndexedDocument[], queries: readonly string[], target: string): string[] {
  const workspaceIds = new Set(CORPUS_WORKSPACES);
  const ours = new OrgSearchIndex();
  const oursBuildMs = timeIt(() => {
    for (const doc of docs) ours.upsert(doc);
  });
  const raw = rawFlexIndex();
  const rawBuildMs = timeIt(() => {
    docs.forEach((doc, slot) => raw.add({ id: slot, title: doc.title, body: doc.body } satisfies RawDocument));
  });

  const runOurs = (query: string) => ours.search({ query, workspaceIds, limit: LIMIT }).hits;
  const runRawSame = (query: string) =>
    raw.search(query, {
      index: [
        { field: 'title', limit: CANDIDATES.title, suggest: true },
        { field: 'body', limit: CANDIDATES.body, suggest: true },
      ],
    });
  const runRawTop = (query: string) => raw.search(query, { limit: LIMIT, suggest: true });

  for (const query of queries) {
    runOurs(query);
    runRawSame(query);
    runRawTop(query);
  }
  const samples = { ours: [] as number[], rawSame: [] as number[], rawTop: [] as number[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const query of queries) {
      // Interleaved, so drift (GC, JIT, CPU frequency) hits all three alike.
      samples.ours.push(timeIt(() => runOurs(query)));
      samples.rawSame.push(timeIt(() => runRawSame(query)));
      samples.rawTop.push(timeIt(() => runRawTop(query)));
    }
  }
  const oursT = summarize(samples.ours);
  const rawSameT = summarize(samples.rawSame);
  const rawTopT = summarize(samples.rawTop);
  const agreement = exhaustiveAgreement(ours, docs, queries);
  const fmt = (t: Timings) => `p50 ${t.p50.toFixed(3)} ms  p95 ${t.p95.toFixed(3)} ms  mean ${t.mean.toFixed(3)} ms`;
  const ratio = (a: Timings, b: Timings) =>
    `p50 x${(a.p50 / b.p50).toFixed(2)}  p95 x${(a.p95 / b.p95).toFixed(2)}  mean x${(a.mean / b.mean).toFixed(2)}`;
  return [
    `build: ours ${oursBuildMs.toFixed(0)} ms, raw FlexSearch ${rawBuildMs.toFixed(0)} ms`,
    `ours (impact-ordered, best scored exactly, previews):           ${fmt(oursT)}`,
    `raw FlexSearch, same retrieval (title ${CANDIDATES.title}, body ${CANDIDATES.body}): ${fmt(rawSameT)}`,
    `raw FlexSearch, top ${LIMIT} per field:                   ${fmt(rawTopT)}`,
    `ratio ours / raw same retrieval: ${ratio(oursT, rawSameT)}${target}`,
    `ratio ours / raw top ${LIMIT}:         ${ratio(oursT, rawTopT)}`,
    `top ${LIMIT} as with every posting read: ${agreement.same}/${queries.length} queries the same ids in the same order, ${(100 * agreement.overlap).toFixed(1)}% of ids in common`,
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runSearchBench();
}
