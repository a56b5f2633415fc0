import { beforeEach, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../src/errors.js';
import { OrgSearchIndex, type IndexedDocument, type SearchHit, type SearchQuery } from '../../../src/search/index.js';
import { MAX_QUERY_TERMS } from '../../../src/search/org-search-index.js';
import { byId, CORPUS, INTERNAL, SHARED, UPDATED_AT } from './corpus.js';

const EVERYWHERE = new Set([SHARED, INTERNAL]);

let index: OrgSearchIndex;
beforeEach(() => {
  index = new OrgSearchIndex();
  for (const doc of CORPUS) index.upsert(doc);
});

const search = (query: string, options: Partial<SearchQuery> = {}): SearchHit[] =>
  index.search({ query, workspaceIds: EVERYWHERE, limit: 50, ...options }).hits;
const ids = (hits: SearchHit[]): string[] => hits.map((hit) => hit.id);
const scoreOf = (hits: SearchHit[], id: string): number => {
  const hit = hits.find((entry) => entry.id === id);
  if (!hit) throw new Error(`${id} not in results: ${ids(hits).join(', ')}`);
  return hit.score;
};
/** Indexes a document, changed at UPDATED_AT unless it says otherwise. */
const put = (target: OrgSearchIndex, doc: Omit<IndexedDocument, 'updatedAt'> & { updatedAt?: string }): void =>
  target.upsert({ updatedAt: UPDATED_AT, ...doc });
const page = (id: string, title: string, body: string, updatedAt = UPDATED_AT): IndexedDocument => ({
  id,
  type: 'page',
  workspaceId: SHARED,
  title,
  body: `# ${title}\n\n${body}\n`,
  updatedAt,
});
const only = (...docs: IndexedDocument[]): OrgSearchIndex => {
  const fresh = new OrgSearchIndex();
  for (const doc of docs) fresh.upsert(doc);
  return fresh;
};
const rank = (target: OrgSearchIndex, query: string, limit = 50): string[] =>
  ids(target.search({ query, workspaceIds: EVERYWHERE, limit }).hits);

/** Documents that hold no query word, so that every query word is rare enough to count (BM25's idf). */
const FILLER = Array.from({ length: 20 }, (_, n) =>
  page(`filler-${n}`, `Unrelated ${n}`, 'Warehouse shelving and pallet layout.'),
);

describe('OrgSearchIndex ranking (BM25F)', () => {
  it('puts the exact (case-insensitive) title first, above titles and bodies that merely mention it', () => {
    const checkout = search('checkout');
    expect(checkout[0]?.id).toBe('cap-checkout');
    expect(checkout[0]!.score).toBeGreaterThan(checkout[1]!.score);
    expect(search('PAYMENTS')[0]?.id).toBe('cap-payments');
    expect(search('payment intent')[0]?.id).toBe('ce-payment-intent');
  });

  it('weighs rare words above common ones: two rare words beat three common ones', () => {
    const common = Array.from({ length: 12 }, (_, n) =>
      page(`common-${n}`, `Note ${n}`, 'The system data is used within the process.'),
    );
    const target = only(
      ...FILLER,
      ...common,
      page('rare', 'Combustion study', 'Methane combustion measured in a chamber.'),
      page('many-common', 'Process note', 'System data used within the process, system data used.'),
    );
    expect(rank(target, 'methane combustion system data used')[0]).toBe('rare');
  });

  it('normalizes by length: the same single mention counts more in a short document', () => {
    const padding = 'Shelving and pallet layout for the warehouse floor. '.repeat(30);
    const target = only(
      ...FILLER,
      page('short', 'Note A', 'Refund approval rules.'),
      page('long', 'Note B', `${padding} Refund approval rules. ${padding}`),
    );
    expect(rank(target, 'refund approval')).toEqual(['short', 'long']);
  });

  it('saturates term frequency: repeating a word adds less and less', () => {
    const times = (n: number) =>
      page(`x${n}`, `Doc ${n}`, `${'Refund. '.repeat(n)}Pallet shelving warehouse layout.`.trim());
    const target = only(...FILLER, times(1), times(2), times(8));
    const hits = target.search({ query: 'refund', workspaceIds: EVERYWHERE, limit: 3 }).hits;
    const [eight, two, one] = ['x8', 'x2', 'x1'].map((id) => scoreOf(hits, id));
    expect(eight).toBeGreaterThan(two!);
    expect(two).toBeGreaterThan(one!);
    expect(eight! - two!).toBeLessThan(3 * (two! - one!));
  });

  it('weighs the title above the body', () => {
    const target = only(
      ...FILLER,
      page('in-title', 'Invoice archive', 'Old documents are kept.'),
      page('in-body', 'Archive', 'Old invoice documents are kept.'),
    );
    expect(rank(target, 'invoice')).toEqual(['in-title', 'in-body']);
  });

  it('meets word forms through the stemmer, in titles and bodies alike', () => {
    const target = only(
      ...FILLER,
      page('flexible', 'Flexible plans', 'Plans can change.'),
      page('payments', 'Billing', 'Payments are settled nightly.'),
      page('organizations', 'Tenancy', 'Organizations own their data.'),
      page('reports', 'Monthly reports', 'Sent on the first.'),
    );
    const pairs: [string, string][] = [
      ['flexibility', 'flexible'],
      ['reporting', 'reports'],
      ['payment', 'payments'],
      ['organization', 'organizations'],
    ];
    for (const [query, id] of pairs) expect(rank(target, `${query}.`), query).toEqual([id]);
  });

  it('ranks query words standing together above the same words scattered (proximity)', () => {
    const scattered =
      'Password rules are strict. Pallet shelving warehouse layout and more layout notes here. The reset flow is elsewhere.';
    const target = only(
      ...FILLER,
      page('apart', 'Note A', scattered),
      page(
        'together',
        'Note B',
        'Strict rules elsewhere: the password reset flow. Pallet shelving warehouse layout and more layout notes here.',
      ),
    );
    const hits = target.search({ query: 'password reset', workspaceIds: EVERYWHERE, limit: 2 }).hits;
    expect(ids(hits)).toEqual(['together', 'apart']);
  });

  it('counts a word the question repeats more (query term frequency)', () => {
    const target = only(
      ...FILLER,
      page('ledger', 'Note A', 'Ledger entries.'),
      page('audit', 'Note B', 'Audit trail.'),
    );
    expect(rank(target, 'ledger audit audit.')[0]).toBe('audit');
    expect(rank(target, 'ledger ledger audit.')[0]).toBe('ledger');
  });

  it('keeps every score in (0, 1], best first, and an answer deterministic', () => {
    for (const query of ['checkout', 'guest checkout email', 'payment', 'notification order']) {
      const hits = search(query);
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) {
        expect(hit.score).toBeGreaterThan(0);
        expect(hit.score).toBeLessThanOrEqual(1);
      }
      for (let n = 1; n < hits.length; n += 1) expect(hits[n]!.score).toBeLessThanOrEqual(hits[n - 1]!.score);
      expect(search(query)).toEqual(hits);
    }
  });

  it('breaks equal scores by the more recently changed, then by id, never by title, whatever the insertion order', () => {
    const twins = [
      page('b-old', 'Alpha rollout', 'Canary release.', '2026-01-01T00:00:00.000Z'),
      page('a-new', 'Zulu rollout', 'Canary release.', '2026-03-01T00:00:00.000Z'),
      page('c-old', 'Mike rollout', 'Canary release.', '2026-01-01T00:00:00.000Z'),
    ];
    const forward = only(...FILLER, ...twins);
    const backward = only(...FILLER, ...[...twins].reverse());
    const hits = forward.search({ query: 'canary', workspaceIds: EVERYWHERE, limit: 3 }).hits;
    expect(new Set(hits.map((hit) => hit.score)).size).toBe(1);
    expect(ids(hits)).toEqual(['a-new', 'b-old', 'c-old']);
    expect(rank(backward, 'canary', 3)).toEqual(['a-new', 'b-old', 'c-old']);
  });

  it('finds a document holding one rare query word among thousands holding a common one', () => {
    const common = Array.from({ length: 3000 }, (_, n) =>
      page(`order-${n}`, `Order ${n}`, 'Order status and order history.'),
    );
    const target = only(...common, page('zeppelin', 'Airship', 'Zeppelin delivery of the order.'));
    expect(rank(target, 'order zeppelin', 10)[0]).toBe('zeppelin');
  });
});

describe('OrgSearchIndex filters and limit', () => {
  it('returns only the requested artifact types', () => {
    const hits = search('checkout', { types: ['requirement'] });
    expect(ids(hits).sort()).toEqual(['req-checkout-latency', 'req-guest-email']);
    const pagesAndFeatures = search('checkout', { types: ['page', 'feature'] });
    expect(pagesAndFeatures.length).toBeGreaterThan(0);
    expect(pagesAndFeatures.every((hit) => hit.type === 'page' || hit.type === 'feature')).toBe(true);
  });

  it('returns only documents in the readable workspaces', () => {
    const shared = search('checkout', { workspaceIds: new Set([SHARED]) });
    expect(ids(shared)).not.toContain('page-checkout-redesign');
    expect(shared.every((hit) => hit.workspaceId === SHARED)).toBe(true);
    expect(ids(search('checkout', { workspaceIds: new Set([INTERNAL]) }))).toEqual(['page-checkout-redesign']);
    expect(search('checkout', { workspaceIds: new Set() })).toEqual([]);
  });

  it('cuts at the limit after ranking', () => {
    const all = search('checkout');
    expect(all.length).toBeGreaterThan(3);
    expect(search('checkout', { limit: 3 })).toEqual(all.slice(0, 3));
    expect(search('checkout', { limit: 1 })).toHaveLength(1);
  });

  it('filters before the limit, so a small readable workspace still gets its matches', () => {
    const big = new OrgSearchIndex();
    for (let n = 0; n < 600; n += 1) {
      put(big, {
        id: `a-${n}`,
        type: 'feature',
        workspaceId: 'ws-a',
        title: `Invoice export ${n}`,
        body: 'Invoices as PDF and CSV.',
      });
    }
    for (let n = 0; n < 5; n += 1) {
      put(big, {
        id: `b-${n}`,
        type: 'page',
        workspaceId: 'ws-b',
        title: `Finance note ${n}`,
        body: 'Later in the text: one invoice a month.',
      });
    }
    const hits = big.search({ query: 'invoice', workspaceIds: new Set(['ws-b']), limit: 5 }).hits;
    expect(ids(hits).sort()).toEqual(['b-0', 'b-1', 'b-2', 'b-3', 'b-4']);
    const typed = big.search({
      query: 'invoice',
      workspaceIds: new Set(['ws-a', 'ws-b']),
      types: ['page'],
      limit: 50,
    }).hits;
    expect(typed).toHaveLength(5);
  });

  it('filters by where a document is now: moved to another workspace or type, removed, or restored from a snapshot', async () => {
    const moving = new OrgSearchIndex();
    put(moving, { id: 'ledger', type: 'page', workspaceId: 'ws-a', title: 'Ledger export', body: 'Ledger lines.' });
    put(moving, { id: 'ledger-rules', type: 'feature', workspaceId: 'ws-b', title: 'Ledger rules', body: 'Rules.' });
    const found = (workspace: string, types?: SearchQuery['types']) =>
      ids(moving.search({ query: 'ledger', workspaceIds: new Set([workspace]), limit: 10, types }).hits);
    expect(found('ws-a')).toEqual(['ledger']);

    put(moving, {
      id: 'ledger',
      type: 'requirement',
      workspaceId: 'ws-b',
      title: 'Ledger export',
      body: 'Ledger lines.',
    });
    expect(found('ws-a')).toEqual([]);
    expect(found('ws-b').sort()).toEqual(['ledger', 'ledger-rules']);
    expect(found('ws-b', ['page'])).toEqual([]);
    expect(found('ws-b', ['requirement'])).toEqual(['ledger']);
    expect(found('ws-unknown')).toEqual([]);

    const restored = OrgSearchIndex.fromSnapshot(await moving.snapshot());
    expect(
      ids(restored.search({ query: 'ledger', workspaceIds: new Set(['ws-b']), types: ['feature'], limit: 10 }).hits),
    ).toEqual(['ledger-rules']);

    moving.remove('ledger');
    expect(found('ws-b')).toEqual(['ledger-rules']);
    expect(found('ws-b', ['requirement'])).toEqual([]);
  });

  it('rejects a limit outside 1-50', () => {
    for (const limit of [0, 51, 2.5, Number.NaN]) {
      expect(() => search('checkout', { limit })).toThrow(InvalidInputError);
    }
  });
});

describe('OrgSearchIndex queries', () => {
  it('rejects an empty or whitespace-only query', () => {
    for (const query of ['', '   ', '\n\t']) expect(() => search(query)).toThrow(InvalidInputError);
  });

  it('ignores punctuation and case, folds accents, and returns nothing for symbols alone', () => {
    expect(search('checkout!!! ???')).toEqual(search('Checkout'));
    expect(ids(search('francais'))).toEqual(['page-localization']);
    expect(ids(search('ESPAÑOL'))).toEqual(['page-localization']);
    expect(ids(search('3-D Secure'))).toContain('req-3ds');
    expect(search('?!')).toEqual([]);
    expect(search('🙂')).toEqual([]);
    expect(search('日本語')).toEqual([]);
  });

  it('answers a long query of repeated words from all of it', () => {
    const hits = search(`payment intent ${'lorem ipsum dolor sit amet '.repeat(300)}`);
    expect(hits[0]?.id).toBe('ce-payment-intent');
  });
});

describe('OrgSearchIndex previews', () => {
  it('shows the text around the first body match, without markdown', () => {
    const [hit] = search('3-D Secure', { types: ['capability'] });
    expect(hit?.id).toBe('cap-payments');
    expect(hit!.preview).toContain('3-D Secure');
    expect(hit!.preview).not.toMatch(/\*\*|^#|\]\(|^- /);
  });

  it('puts a preview on one line, white space runs as one space (the search tool prints it as is)', () => {
    const fresh = new OrgSearchIndex();
    put(fresh, {
      id: 'lines',
      type: 'page',
      workspaceId: SHARED,
      title: 'Lines',
      body: '# Lines\n\nFirst   line\t here.\n\n- second\r\n- third  line',
    });
    const [hit] = fresh.search({ query: 'second', workspaceIds: EVERYWHERE, limit: 1 }).hits;
    expect(hit!.preview).toBe('First line here. second third line');
  });

  it('does not find link targets, only the text people read', () => {
    expect(ids(search('example'))).toEqual([]);
    expect(ids(search('guest'))).toContain('cap-checkout');
  });

  it('cuts a long body to about 160 characters on word boundaries, with ellipses', () => {
    const filler = 'Shoppers browse the catalog and compare products carefully before they buy anything. ';
    const body = `# Long page\n\n${filler.repeat(6)}The **loyalty points** balance appears here. ${filler.repeat(6)}`;
    const fresh = new OrgSearchIndex();
    put(fresh, { id: 'long', type: 'page', workspaceId: SHARED, title: 'Long page', body });
    const [hit] = fresh.search({ query: 'loyalty', workspaceIds: EVERYWHERE, limit: 1 }).hits;
    const preview = hit!.preview;
    expect(preview).toContain('loyalty points balance');
    expect(preview.startsWith('…')).toBe(true);
    expect(preview.endsWith('…')).toBe(true);
    expect(preview.length).toBeLessThanOrEqual(165);
    expect(preview.length).toBeGreaterThan(120);
    const inner = preview.slice(1, -1);
    expect(body.replace(/\*\*/g, '')).toContain(inner);
    // Word boundaries: the snippet neither starts nor ends inside a word of the source.
    const plain = body.replace(/\*\*/g, '');
    const at = plain.indexOf(inner);
    expect(plain[at - 1]).toBe(' ');
    expect(plain[at + inner.length]).toMatch(/[ .]/);
  });

  it('shows the start of the body when only the title matched, skipping the title heading', () => {
    const [hit] = search('express checkout', { limit: 1 });
    expect(hit?.id).toBe('feat-express-checkout');
    expect(hit!.preview).toBe(byId('feat-express-checkout').body.split('\n')[2]);
  });
});

describe('OrgSearchIndex prefix search in bodies', () => {
  const doc = (id: string, title: string, body: string): IndexedDocument => ({
    id,
    type: 'page',
    workspaceId: SHARED,
    title,
    body,
    updatedAt: UPDATED_AT,
  });
  const bodies = (): OrgSearchIndex => {
    const fresh = new OrgSearchIndex();
    fresh.upsert(doc('page-a', 'Alpha', 'Alpha sends a notification when the parcel ships.'));
    fresh.upsert(doc('page-b', 'Beta', 'Beta will notify the courier and the shopper.'));
    fresh.upsert(doc('page-c', 'Gamma', 'Gamma keeps a notice on the board.'));
    return fresh;
  };
  const found = (target: OrgSearchIndex, query: string): string[] =>
    target
      .search({ query, workspaceIds: EVERYWHERE, limit: 10 })
      .hits.map((hit) => hit.id)
      .sort();

  it('finds every body holding a word the query term starts, and only those', () => {
    const target = bodies();
    expect(found(target, 'notif')).toEqual(['page-a', 'page-b']);
    expect(found(target, 'noti')).toEqual(['page-a', 'page-b', 'page-c']);
    expect(found(target, 'notif courier')).toEqual(['page-a', 'page-b']);
    expect(target.search({ query: 'notif courier', workspaceIds: EVERYWHERE, limit: 10 }).hits[0]?.id).toBe('page-b');
  });

  it('sees words added and removed by later writes in a prefix it answered before', () => {
    const target = bodies();
    expect(found(target, 'notif')).toEqual(['page-a', 'page-b']);
    target.upsert(doc('page-c', 'Gamma', 'Gamma posts a notifier on the board.'));
    expect(found(target, 'notif')).toEqual(['page-a', 'page-b', 'page-c']);
    target.remove('page-a');
    target.upsert(doc('page-b', 'Beta', 'Beta calls the courier.'));
    expect(found(target, 'notif')).toEqual(['page-c']);
  });

  it('finds the same after a snapshot is restored', async () => {
    const restored = OrgSearchIndex.fromSnapshot(await bodies().snapshot());
    expect(found(restored, 'notif')).toEqual(['page-a', 'page-b']);
    expect(found(restored, 'noti')).toEqual(['page-a', 'page-b', 'page-c']);
    restored.upsert(doc('page-d', 'Delta', 'Delta can notify too.'));
    expect(found(restored, 'notif')).toEqual(['page-a', 'page-b', 'page-d']);
  });
});

describe('OrgSearchIndex updates', () => {
  it('replaces a document on upsert: old words stop matching, new words match', () => {
    expect(ids(search('welcome'))).toContain('cap-onboarding');
    put(index, {
      ...byId('cap-onboarding'),
      title: 'First steps',
      body: '# First steps\n\nA checklist of account setup tasks.\n',
    });
    expect(index.size).toBe(CORPUS.length);
    expect(ids(search('welcome'))).not.toContain('cap-onboarding');
    expect(ids(search('onboarding'))).not.toContain('cap-onboarding');
    expect(search('first steps')[0]).toMatchObject({ id: 'cap-onboarding', title: 'First steps' });
  });

  it('forgets a removed document', () => {
    index.remove('feat-wallets');
    expect(index.size).toBe(CORPUS.length - 1);
    // The index must answer, not fail, for a word that no document holds any more.
    put(index, {
      id: 'page-zeppelin',
      type: 'page',
      workspaceId: SHARED,
      title: 'Zeppelin',
      body: 'Zeppelin delivery trial.',
    });
    expect(ids(search('zeppelin'))).toEqual(['page-zeppelin']);
    index.remove('page-zeppelin');
    expect(search('zeppelin')).toEqual([]);
    expect(ids(search('digital wallets'))).not.toContain('feat-wallets');
    index.remove('no-such-id');
    expect(index.size).toBe(CORPUS.length - 1);
    index.upsert(byId('feat-wallets'));
    expect(search('digital wallets')[0]?.id).toBe('feat-wallets');
  });
});

describe('OrgSearchIndex long questions', () => {
  it('drops stopwords and searches every remaining word, however long the question', () => {
    const words = Array.from({ length: 30 }, (_, n) => `word${String.fromCharCode(97 + (n % 26))}${n}`);
    const target = only(...FILLER, page('last-word', 'Note', `Only ${words.at(-1)} here.`));
    const question = `What are the ${words.join(' and the ')} about?`;
    const answer = target.search({ query: question, workspaceIds: EVERYWHERE, limit: 5 });
    expect(ids(answer.hits)).toEqual(['last-word']);
    expect(answer.notice).toBeUndefined();
  });

  it(`searches the ${MAX_QUERY_TERMS} rarest of more distinct words, and says so`, () => {
    const words = Array.from({ length: MAX_QUERY_TERMS + 6 }, (_, n) => `term${n}x`);
    const answer = only(...FILLER, page('hit', 'Note', words.join(' '))).search({
      query: words.join(' '),
      workspaceIds: EVERYWHERE,
      limit: 5,
    });
    expect(ids(answer.hits)).toEqual(['hit']);
    expect(answer.notice).toContain(`${MAX_QUERY_TERMS} rarest`);
    expect(answer.notice).toContain(`${MAX_QUERY_TERMS + 6}`);
  });

  it('refuses a query over 10,000 characters with a clear error instead of cutting it', () => {
    expect(() => search('refund '.repeat(2_000))).toThrow(/at most 10000/);
  });
});
