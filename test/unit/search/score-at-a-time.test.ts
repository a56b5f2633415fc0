import { describe, expect, it } from 'vitest';
import { OrgSearchIndex, type IndexedDocument } from '../../../src/search/index.js';

const WORKSPACES = ['ws-a', 'ws-b'];
const UPDATED_AT = '2026-01-01T00:00:00.000Z';

/** Documents whose words repeat in every proportion, so that impacts spread over many buckets. */
function corpus(size: number): IndexedDocument[] {
  const words = ['ledger', 'invoice', 'refund', 'carrier', 'parcel', 'voucher', 'tariff', 'rebate'];
  return Array.from({ length: size }, (_, n) => {
    const body =
      words.map((word, w) => `${word} `.repeat(1 + ((n * (w + 3)) % 7))).join('. ') + 'filler text '.repeat(n % 13);
    const title = `${words[n % words.length]} note ${n}`;
    return {
      id: `doc-${String(n).padStart(4, '0')}`,
      type: 'page',
      workspaceId: WORKSPACES[n % 2]!,
      title,
      body: `# ${title}\n\n${body}\n`,
      updatedAt: UPDATED_AT,
    };
  });
}

const built = (postingsBudget: number, docs: readonly IndexedDocument[]): OrgSearchIndex => {
  const index = new OrgSearchIndex({ postingsBudget });
  for (const doc of docs) index.upsert(doc);
  return index;
};

describe('score at a time over the impact-ordered index', () => {
  const docs = corpus(600);
  const everything = built(Infinity, docs);
  const queries = ['ledger', 'refund carrier', 'voucher tariff rebate', 'invoice parcel ledger refund'];
  const ids = (index: OrgSearchIndex, query: string, workspaceIds = new Set(WORKSPACES), limit = 10) =>
    index.search({ query, workspaceIds, limit }).hits.map((hit) => hit.id);

  it('returns what reading every posting returns when the budget is not reached', () => {
    const budgeted = built(1_000_000, docs);
    for (const query of queries) expect(ids(budgeted, query), query).toEqual(ids(everything, query));
  });

  it('still fills the answer with documents holding the query when the budget is spent at once', () => {
    const starved = built(1, docs);
    const byId = new Map(docs.map((doc) => [doc.id, doc.body.toLowerCase()]));
    for (const query of queries) {
      const got = ids(starved, query);
      expect(got, query).toHaveLength(10);
      for (const id of got)
        expect(
          query.split(' ').some((word) => byId.get(id)!.includes(word)),
          `${query}: ${id}`,
        ).toBe(true);
    }
  });

  it('holds only documents the caller may see, however many others rank above them', () => {
    const starved = built(1, docs);
    for (const query of queries) {
      const got = starved.search({ query, workspaceIds: new Set(['ws-b']), limit: 10 }).hits;
      expect(got).toHaveLength(10);
      expect(got.every((hit) => hit.workspaceId === 'ws-b')).toBe(true);
    }
  });

  it('answers the same after other searches (its scratch is left clean)', () => {
    const index = built(Infinity, docs);
    const first = queries.map((query) => ids(index, query, new Set(['ws-a']), 50));
    for (const query of queries) ids(index, query);
    expect(queries.map((query) => ids(index, query, new Set(['ws-a']), 50))).toEqual(first);
  });

  it('admits a slot another search refused, and leaves no sum behind after the index grows', () => {
    // Past the scratch's first 1,024 slots, so that it grows between searches.
    const more = corpus(1_500);
    const index = built(Infinity, more.slice(0, 300));
    const fresh = built(Infinity, more.slice(0, 300));
    for (const query of queries) ids(index, query, new Set(['ws-b']));
    for (const query of queries) expect(ids(index, query), query).toEqual(ids(fresh, query));
    for (const doc of more.slice(300)) {
      index.upsert(doc);
      fresh.upsert(doc);
    }
    for (const query of queries)
      expect(ids(index, query, new Set(['ws-a'])), query).toEqual(ids(fresh, query, new Set(['ws-a'])));
  });
});
