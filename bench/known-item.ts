import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openServices, type Services } from '../src/app/services.js';
import { loadConfig } from '../src/config/index.js';
import type { Actor } from '../src/domain/index.js';
import { alphanumericWords } from './support/ir-engines.js';
import { mean } from './support/ir-metrics.js';
import { importDocs, nodeDocDirectories, type ImportedDocs } from './support/node-docs.js';

/**
 * Known-item search on real documentation: the Node.js, npm and undici pages the `nodejs`
 * package installs (support/node-docs.ts), brought in with `specbase import`. Every title held
 * by one page only is asked as written and as typed (lower case, punctuation and hyphens as
 * spaces); the answer is that page. Success@1 (it is first) and MRR@10 (1/its rank in the top
 * 10, else 0) of `specbase_search`'s code path beside SQLite FTS5 (porter) over the same titles
 * and bodies, ranked by bm25() with the title column weighted 10 (as FTS5's documentation
 * weighs a title), its query words joined with AND and with OR, in the same run.
 */
const RANKS = 10;
const FTS5_TITLE_WEIGHT = 10;

const asTyped = (title: string): string =>
  title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
const VARIANTS = [
  { name: 'as written', of: (title: string) => title },
  { name: 'as typed', of: asTyped },
];

interface Page {
  readonly id: string;
  readonly title: string;
  readonly body: string;
}

/** An engine's ids for a query, best first. */
type Ranker = { readonly name: string; search(query: string): Promise<readonly string[]> };

export async function runKnownItemBench(): Promise<void> {
  const dirs = nodeDocDirectories();
  if (dirs.length === 0) {
    console.log(
      '\nknown items: skipped, no documentation found (install the nodejs package, or set SPECBASE_BENCH_DOCS)',
    );
    return;
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'specbase-bench-known-item-'));
  try {
    const start = performance.now();
    const docs = await importDocs(dataDir, dirs);
    console.log(
      `\nknown items: ${docs.imported.map(({ dir, files }) => `${files} files of ${dir}`).join(', ')}, ` +
        `read where installed; specbase import ${((performance.now() - start) / 1000).toFixed(1)} s`,
    );
    await benchKnownItems(dataDir, docs);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The measurement, over an organization `importDocs` filled in `dataDir`. */
export async function benchKnownItems(dataDir: string, docs: ImportedDocs): Promise<void> {
  const services = await openServices(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', SPECBASE_DATA_DIR: dataDir, SPECBASE_LOG_LEVEL: 'silent' }),
  );
  try {
    const pages = (await services.store.readMany(docs.orgId))
      .filter((record) => record.type === 'page')
      .map(({ id, title, body }) => ({ id, title, body }));
    const holders = new Map<string, number>();
    for (const page of pages) holders.set(asTyped(page.title), (holders.get(asTyped(page.title)) ?? 0) + 1);
    const known = pages.filter((page) => asTyped(page.title) !== '' && holders.get(asTyped(page.title)) === 1);
    console.log(`  ${pages.length} pages, ${known.length} unique titles (as typed), each asked in both forms`);
    const fts = openFts5(pages);
    const engines: Ranker[] = [await specbaseRanker(services, docs), fts.and, fts.or];
    const lines: string[] = [];
    for (const variant of VARIANTS) {
      for (const engine of engines) {
        const ranks: (number | undefined)[] = [];
        const missed: string[] = [];
        for (const page of known) {
          const query = variant.of(page.title);
          const rank = (await engine.search(query)).slice(0, RANKS).indexOf(page.id);
          ranks.push(rank === -1 ? undefined : rank + 1);
          if (rank !== 0)
            missed.push(`${JSON.stringify(query)} ${rank === -1 ? `not in top ${RANKS}` : `#${rank + 1}`}`);
        }
        const success = mean(ranks.map((rank) => (rank === 1 ? 1 : 0)));
        const mrr = mean(ranks.map((rank) => (rank ? 1 / rank : 0)));
        lines.push(
          `  ${engine.name.padEnd(12)} ${variant.name.padEnd(11)} ${success.toFixed(3).padStart(10)} ${mrr.toFixed(3).padStart(7)}` +
            `   ${missed.length} not first${engine.name === 'specbase' && missed.length ? `: ${missed.slice(0, 8).join(', ')}` : ''}`,
        );
      }
    }
    console.log(
      [
        `  ${'engine'.padEnd(12)} ${'variant'.padEnd(11)} ${'success@1'.padStart(10)} ${'MRR@10'.padStart(7)}`,
        ...lines,
      ].join('\n'),
    );
    fts.close();
  } finally {
    await services.close();
  }
}

/** Specbase's search as the `specbase_search` tool runs it, for the organization's owner. */
async function specbaseRanker(services: Services, docs: ImportedDocs): Promise<Ranker> {
  const user = await services.control.users.byEmail(docs.email);
  const principal = user && (await services.control.members.principal(docs.orgId, user.id));
  if (!principal) throw new Error('the importing user has no principal in its organization');
  const actor: Actor = { principal, client: 'known-item-bench' };
  return {
    name: 'specbase',
    async search(query) {
      return (await services.specs.search(actor, { query, limit: RANKS })).results.map((result) => result.id);
    },
  };
}

/** FTS5 with the porter stemmer over title and body, bm25() with the title weighted; each query word quoted. */
function openFts5(pages: readonly Page[]): { and: Ranker; or: Ranker; close(): void } {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(title, body, tokenize = 'porter unicode61')`);
  const insert = db.prepare('INSERT INTO t (rowid, title, body) VALUES (?, ?, ?)');
  db.transaction(() => pages.forEach((page, row) => insert.run(row + 1, page.title, page.body)))();
  const select = db.prepare<[string, number], { rowid: number }>(
    `SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t, ${FTS5_TITLE_WEIGHT}, 1) LIMIT ?`,
  );
  const ranker = (name: string, joiner: string): Ranker => ({
    name,
    async search(query) {
      const words = alphanumericWords(query);
      if (!words.length) return [];
      return select.all(words.map((word) => `"${word}"`).join(joiner), RANKS).map((row) => pages[row.rowid - 1]!.id);
    },
  });
  return { and: ranker('fts5 AND', ' '), or: ranker('fts5 OR', ' OR '), close: () => db.close() };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runKnownItemBench();
}
