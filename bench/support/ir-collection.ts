import { readFileSync } from 'node:fs';

/**
 * A judged retrieval test collection in the SMART format of bench/data/ir: records opened by
 * `.I <id>`, each field opened by a line holding only its marker (`.T` title, `.W` text, `.A`
 * authors, `.B`, `.N`, `.X` ...); judgments one `query doc ...` line per relevant pair.
 */
export interface IrDocument {
  readonly id: string;
  readonly title: string;
  /** Empty for a document with a title only (many in CACM). */
  readonly text: string;
}

export interface IrQuery {
  readonly id: string;
  readonly text: string;
}

export interface IrCollection {
  readonly name: string;
  readonly documents: readonly IrDocument[];
  /** Judged queries only: those with at least one relevant document. */
  readonly queries: readonly IrQuery[];
  /** Relevant document ids by query id. */
  readonly relevant: ReadonlyMap<string, ReadonlySet<string>>;
  /** Records in the query file, judged or not. */
  readonly queriesInFile: number;
  /** Judged pairs whose document is not in the collection (none expected). */
  readonly missingDocuments: number;
}

export interface SmartRecord {
  readonly id: string;
  /** Lines of each field, by marker letter. */
  readonly fields: ReadonlyMap<string, readonly string[]>;
}

const RECORD = /^\.I\s+(\S+)\s*$/;
const FIELD = /^\.([A-Z])\s*$/;

/** Ids as numbers write them: `01` and `1` are one query. */
const canonicalId = (raw: string): string => (/^\d+$/.test(raw) ? String(Number(raw)) : raw);

export function parseSmartRecords(source: string): SmartRecord[] {
  const records: { id: string; fields: Map<string, string[]> }[] = [];
  let lines: string[] | undefined;
  for (const line of source.split(/\r?\n/)) {
    const record = RECORD.exec(line);
    if (record) {
      records.push({ id: canonicalId(record[1]!), fields: new Map() });
      lines = undefined;
      continue;
    }
    const field = FIELD.exec(line);
    const current = records.at(-1);
    if (field && current) {
      lines = [];
      current.fields.set(field[1]!, lines);
    } else {
      lines?.push(line);
    }
  }
  return records;
}

/** A field as one paragraph: its lines trimmed (the files indent by typewriter), blank ones dropped. */
export function fieldText(record: SmartRecord, marker: string, separator = '\n'): string {
  return (record.fields.get(marker) ?? [])
    .map((line) => line.trim())
    .filter(Boolean)
    .join(separator);
}

/** Relevant document ids by query id, from `query doc ...` lines. */
export function parseJudgments(source: string): Map<string, Set<string>> {
  const relevant = new Map<string, Set<string>>();
  for (const line of source.split(/\r?\n/)) {
    const [query, doc] = line.trim().split(/\s+/);
    if (!query || !doc) continue;
    const id = canonicalId(query);
    if (!relevant.has(id)) relevant.set(id, new Set());
    relevant.get(id)!.add(canonicalId(doc));
  }
  return relevant;
}

/** What a document without a `.T` is titled (one in CACM, 3193, judged for no query): a page needs a title. */
export const UNTITLED = 'Untitled';

/**
 * Documents are title and text (`.T`, `.W`); a query is its `.W` as written, on one line (CISI
 * queries that are papers also have `.T`, `.A`, `.B`, and CACM ones `.A`, `.N`: not used).
 */
export function loadCollection(name: string, files: { documents: URL; queries: URL; judgments: URL }): IrCollection {
  const documents = parseSmartRecords(readFileSync(files.documents, 'utf8')).map((record) => ({
    id: record.id,
    title: fieldText(record, 'T', ' ') || UNTITLED,
    text: fieldText(record, 'W'),
  }));
  const relevant = parseJudgments(readFileSync(files.judgments, 'utf8'));
  const queryRecords = parseSmartRecords(readFileSync(files.queries, 'utf8')).filter((record) =>
    record.fields.has('W'),
  );
  const queries = queryRecords
    .map((record) => ({ id: record.id, text: fieldText(record, 'W', ' ') }))
    .filter((query) => relevant.has(query.id));
  const unknown = [...relevant.keys()].filter((id) => !queries.some((query) => query.id === id));
  if (unknown.length) throw new Error(`${name}: judged queries missing from the query file: ${unknown.join(', ')}`);
  const ids = new Set(documents.map((doc) => doc.id));
  if (ids.size !== documents.length) throw new Error(`${name}: document ids repeat`);
  const missingDocuments = [...relevant.values()].reduce(
    (n, docs) => n + [...docs].filter((id) => !ids.has(id)).length,
    0,
  );
  return { name, documents, queries, relevant, queriesInFile: queryRecords.length, missingDocuments };
}
