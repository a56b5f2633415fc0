import { beforeEach, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../src/errors.js';
import { OrgSearchIndex, type IndexedDocument, type SearchHit, type SearchQuery } from '../../../src/search/index.js';
import { byId, CORPUS, INTERNAL, SHARED } from './corpus.js';

const EVERYWHERE = new Set([SHARED, INTERNAL]);

let index: OrgSearchIndex;
beforeEach(() => {
  index = new OrgSearchIndex();
  for (const doc of CORPUS) index.upsert(doc);
});

const search = (query: string, options: Partial<SearchQuery> = {}): SearchHit[] =>
  index.search({ query, workspaceIds: EVERYWHERE, limit: 50, ...options });
const ids = (hits: SearchHit[]): string[] => hits.map((hit) => hit.id);
const scoreOf = (hits: SearchHit[], id: string): number => {
  const hit = hits.find((entry) => entry.id === id);
  if (!hit) throw new Error(`${id} not in results: ${ids(hits).join(', ')}`);
  return hit.score;
};

describe('OrgSearchIndex ranking', () => {
  it('puts the exact (case-insensitive) title first, above titles and bodies that merely mention it', () => {
    const checkout = search('checkout');
    expect(checkout[0]?.id).toBe('cap-checkout');
    expect(checkout[0]!.score).toBeGreaterThan(checkout[1]!.score);
    expect(search('PAYMENTS')[0]?.id).toBe('cap-payments');
    expect(search('payment intent')[0]?.id).toBe('ce-payment-intent');
  });

  it('ranks a document matching all words above documents matching some', () => {
    const hits = search('guest checkout email');
    expect(hits[0]?.id).toBe('req-guest-email');
    const allWords = scoreOf(hits, 'req-guest-email');
    for (const partial of ['feat-guest-checkout', 'ac-guest-confirmation', 'cap-checkout', 'feat-email-digest']) {
      expect(scoreOf(hits, partial)).toBeLessThan(allWords);
    }
  });

  it('prefers the exact title even over the same words with a stronger body', () => {
    index.upsert({
      id: 'page-a-payment-intent', type: 'page', workspaceId: SHARED, title: 'A payment intent',
      body: '# A payment intent\n\nHow a payment intent is created, confirmed and retried.\n',
    });
    const hits = search('payment intent');
    expect(hits[0]?.id).toBe('ce-payment-intent');
    expect(scoreOf(hits, 'page-a-payment-intent')).toBeLessThan(scoreOf(hits, 'ce-payment-intent'));
  });

  it('ranks all words in the body above some words in the title', () => {
    index.upsert({
      id: 'page-invoice-refunds', type: 'page', workspaceId: SHARED, title: 'Invoice refunds',
      body: '# Invoice refunds\n\nRefund an invoice from the back office.\n',
    });
    index.upsert({
      id: 'page-billing-faq', type: 'page', workspaceId: SHARED, title: 'Billing FAQ',
      body: '# Billing FAQ\n\nA shopper may dispute an invoice and ask for a refund by email.\n',
    });
    const hits = search('invoice dispute refund');
    expect(ids(hits).slice(0, 2)).toEqual(['page-billing-faq', 'page-invoice-refunds']);
  });

  it('gives scores that say how much of the query matched, not just the rank', () => {
    const hits = search('declined card');
    // Both words: at least 2/3; one of two words: at most 2/3, whatever the title.
    expect(ids(hits)[0]).toBe('ac-declined-card');
    expect(scoreOf(hits, 'ac-declined-card')).toBeGreaterThanOrEqual(2 / 3);
    for (const oneWord of ['req-3ds', 'feat-wallets', 'cap-payments']) {
      expect(scoreOf(hits, oneWord)).toBeLessThanOrEqual(2 / 3);
    }
    // The same document scores lower for a query it half matches than for one it fully matches.
    expect(scoreOf(search('declined card'), 'req-3ds')).toBeLessThan(scoreOf(search('card'), 'req-3ds'));
  });

  it('weighs the title above the body', () => {
    const hits = search('wallets');
    expect(hits[0]?.id).toBe('feat-wallets');
    for (const bodyOnly of ['cap-payments', 'page-glossary', 'page-checkout-redesign']) {
      expect(scoreOf(hits, bodyOnly)).toBeLessThan(scoreOf(hits, 'feat-wallets'));
    }
  });

  it('counts a phrase: the query words together beat the same words apart', () => {
    const hits = search('order confirmation email');
    expect(hits[0]?.id).toBe('ac-guest-confirmation');
    expect(scoreOf(hits, 'ac-guest-confirmation')).toBeGreaterThan(scoreOf(hits, 'req-guest-email'));
  });

  it('matches word prefixes and plural forms, a whole word counting more than a prefix', () => {
    expect(ids(search('notif'))).toEqual(expect.arrayContaining(['cap-notifications', 'feat-push', 'req-notification-optout']));
    expect(search('notif')[0]?.id).toBe('cap-notifications');
    expect(search('refund')[0]?.id).toBe('feat-refunds');
    expect(scoreOf(search('notifications'), 'cap-notifications')).toBeGreaterThan(scoreOf(search('notif'), 'cap-notifications'));
  });

  it('keeps every score in (0, 1], best first', () => {
    for (const query of ['checkout', 'payment intent', 'guest checkout email', 'notif', 'wallets card refund tax']) {
      const hits = search(query);
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) {
        expect(hit.score).toBeGreaterThan(0);
        expect(hit.score).toBeLessThanOrEqual(1);
      }
      const scores = hits.map((hit) => hit.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    }
  });

  it('breaks equal scores by title, then id, whatever the insertion order', () => {
    const twins = (id: string, title: string): IndexedDocument => ({
      id, type: 'page', workspaceId: SHARED, title, body: `# ${title}\n\nQuarterly alerts go to the finance team.\n`,
    });
    const fresh = new OrgSearchIndex();
    for (const doc of [twins('id-2', 'Zeta alerts'), twins('id-3', 'Alpha alerts'), twins('id-1', 'Zeta alerts')]) fresh.upsert(doc);
    const hits = fresh.search({ query: 'alerts', workspaceIds: EVERYWHERE, limit: 10 });
    expect(new Set(hits.map((hit) => hit.score)).size).toBe(1);
    expect(ids(hits)).toEqual(['id-3', 'id-1', 'id-2']);
  });

  it('finds the best titles among more titles holding the word than a fixed candidate window would read', () => {
    const big = new OrgSearchIndex();
    for (let n = 0; n < 1_500; n += 1) {
      big.upsert({ id: `long-${n}`, type: 'feature', workspaceId: SHARED, title: `Checkout step ${n} for returning customers`, body: 'Checkout steps.' });
    }
    // Added last: FlexSearch's first titles and bodies for the word are all the long ones.
    big.upsert({ id: 'exact', type: 'capability', workspaceId: SHARED, title: 'Checkout', body: 'Paying for a basket.' });
    big.upsert({ id: 'short', type: 'feature', workspaceId: SHARED, title: 'Guest checkout', body: 'Checkout without an account.' });
    const hits = big.search({ query: 'checkout', workspaceIds: EVERYWHERE, limit: 10 });
    expect(ids(hits).slice(0, 2)).toEqual(['exact', 'short']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(hits[1]!.score).toBeGreaterThan(hits[2]!.score);
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
      big.upsert({ id: `a-${n}`, type: 'feature', workspaceId: 'ws-a', title: `Invoice export ${n}`, body: 'Invoices as PDF and CSV.' });
    }
    for (let n = 0; n < 5; n += 1) {
      big.upsert({ id: `b-${n}`, type: 'page', workspaceId: 'ws-b', title: `Finance note ${n}`, body: 'Later in the text: one invoice a month.' });
    }
    const hits = big.search({ query: 'invoice', workspaceIds: new Set(['ws-b']), limit: 5 });
    expect(ids(hits).sort()).toEqual(['b-0', 'b-1', 'b-2', 'b-3', 'b-4']);
    const typed = big.search({ query: 'invoice', workspaceIds: new Set(['ws-a', 'ws-b']), types: ['page'], limit: 50 });
    expect(typed).toHaveLength(5);
  });

  it('filters by where a document is now: moved to another workspace or type, removed, or restored from a snapshot', async () => {
    const moving = new OrgSearchIndex();
    moving.upsert({ id: 'ledger', type: 'page', workspaceId: 'ws-a', title: 'Ledger export', body: 'Ledger lines.' });
    moving.upsert({ id: 'ledger-rules', type: 'feature', workspaceId: 'ws-b', title: 'Ledger rules', body: 'Rules.' });
    const found = (workspace: string, types?: SearchQuery['types']) =>
      ids(moving.search({ query: 'ledger', workspaceIds: new Set([workspace]), limit: 10, types }));
    expect(found('ws-a')).toEqual(['ledger']);

    moving.upsert({ id: 'ledger', type: 'requirement', workspaceId: 'ws-b', title: 'Ledger export', body: 'Ledger lines.' });
    expect(found('ws-a')).toEqual([]);
    expect(found('ws-b').sort()).toEqual(['ledger', 'ledger-rules']);
    expect(found('ws-b', ['page'])).toEqual([]);
    expect(found('ws-b', ['requirement'])).toEqual(['ledger']);
    expect(found('ws-unknown')).toEqual([]);

    const restored = OrgSearchIndex.fromSnapshot(await moving.snapshot());
    expect(ids(restored.search({ query: 'ledger', workspaceIds: new Set(['ws-b']), types: ['feature'], limit: 10 }))).toEqual(['ledger-rules']);

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

  it('answers a very long query quickly, from its first words', () => {
    const long = `payment intent ${'lorem ipsum dolor sit amet '.repeat(400)}`;
    const started = performance.now();
    const hits = search(long);
    expect(performance.now() - started).toBeLessThan(500);
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
    fresh.upsert({ id: 'lines', type: 'page', workspaceId: SHARED, title: 'Lines', body: '# Lines\n\nFirst   line\t here.\n\n- second\r\n- third  line' });
    const [hit] = fresh.search({ query: 'second', workspaceIds: EVERYWHERE, limit: 1 });
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
    fresh.upsert({ id: 'long', type: 'page', workspaceId: SHARED, title: 'Long page', body });
    const [hit] = fresh.search({ query: 'loyalty', workspaceIds: EVERYWHERE, limit: 1 });
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
  const doc = (id: string, title: string, body: string): IndexedDocument => ({ id, type: 'page', workspaceId: SHARED, title, body });
  const bodies = (): OrgSearchIndex => {
    const fresh = new OrgSearchIndex();
    fresh.upsert(doc('page-a', 'Alpha', 'Alpha sends a notification when the parcel ships.'));
    fresh.upsert(doc('page-b', 'Beta', 'Beta will notify the courier and the shopper.'));
    fresh.upsert(doc('page-c', 'Gamma', 'Gamma keeps a notice on the board.'));
    return fresh;
  };
  const found = (target: OrgSearchIndex, query: string): string[] =>
    target.search({ query, workspaceIds: EVERYWHERE, limit: 10 }).map((hit) => hit.id).sort();

  it('finds every body holding a word the query term starts, and only those', () => {
    const target = bodies();
    expect(found(target, 'notif')).toEqual(['page-a', 'page-b']);
    expect(found(target, 'noti')).toEqual(['page-a', 'page-b', 'page-c']);
    expect(found(target, 'notif courier')).toEqual(['page-a', 'page-b']);
    expect(target.search({ query: 'notif courier', workspaceIds: EVERYWHERE, limit: 10 })[0]?.id).toBe('page-b');
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
    index.upsert({ ...byId('cap-onboarding'), title: 'First steps', body: '# First steps\n\nA checklist of account setup tasks.\n' });
    expect(index.size).toBe(CORPUS.length);
    expect(ids(search('welcome'))).not.toContain('cap-onboarding');
    expect(ids(search('onboarding'))).not.toContain('cap-onboarding');
    expect(search('first steps')[0]).toMatchObject({ id: 'cap-onboarding', title: 'First steps' });
  });

  it('forgets a removed document', () => {
    index.remove('feat-wallets');
    expect(index.size).toBe(CORPUS.length - 1);
    // The index must answer, not fail, for a word that no document holds any more.
    index.upsert({ id: 'page-zeppelin', type: 'page', workspaceId: SHARED, title: 'Zeppelin', body: 'Zeppelin delivery trial.' });
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

describe('OrgSearchIndex retrieval stops early only where nothing unscored could rank', () => {
  const WORDS = ['checkout', 'checklist', 'payment', 'payments', 'notification', 'notify', 'refund', 'guest', 'order', 'email'];

  /** A corpus where most titles holding a word have bodies without it, so retrieval must skip past them. */
  function corpus(): IndexedDocument[] {
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const pick = (count: number) => Array.from({ length: count }, () => WORDS[next(WORDS.length)]!).join(' ');
    return Array.from({ length: 1_200 }, (_, n) => ({
      id: `doc-${n}`,
      type: 'feature' as const,
      workspaceId: SHARED,
      title: `${pick(1 + next(3))} step ${n}`,
      body: next(8) === 0 ? `About ${pick(3)} and more.` : 'Nothing to see here.',
    }));
  }

  /** The top scores of scoring every document the query reaches: what retrieval must match. */
  function exhaustiveTopScores(docs: readonly IndexedDocument[], query: string, limit = 10): number[] {
    const all = new OrgSearchIndex();
    const scores: number[] = [];
    // One document at a time: each alone in an index is scored whatever the pruning does.
    for (const doc of docs) {
      all.upsert(doc);
      const hit = all.search({ query, workspaceIds: EVERYWHERE, limit: 1 })[0];
      if (hit) scores.push(hit.score);
      all.remove(doc.id);
    }
    return scores.sort((a, b) => b - a).slice(0, limit);
  }

  it.each(['checkout', 'check', 'pay', 'notif', 'guest checkout', 'payment refund email', 'notification order'])(
    '"%s": the same top-10 scores as scoring every document',
    (query) => {
      const docs = corpus();
      const big = new OrgSearchIndex();
      for (const doc of docs) big.upsert(doc);
      const scores = big.search({ query, workspaceIds: EVERYWHERE, limit: 10 }).map((hit) => hit.score);
      expect(scores).toEqual(exhaustiveTopScores(docs, query));
    },
  );

  /**
   * Titles holding one query word, most with bodies lacking the others: once the results outrank
   * what such a title could reach, retrieval passes over them unweighed, and must not pass over a
   * longer title whose body holds every word.
   */
  function oneWordTitles(): IndexedDocument[] {
    let seed = 11;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const words = ['audit', 'log', 'export'];
    const wordsOfTitle = (first: number, two: boolean) => (two ? [words[first]!, words[(first + 1) % 3]!] : [words[first]!]);
    const fillers = ['viewer', 'daily', 'admin', 'summary', 'panel', 'weekly'];
    const bodies = ['Nothing to see here.', 'Covers the audit trail.', 'Log lines kept.', 'An export to csv.', 'Auditors keep logbooks for exporters.', 'The audit log export.'];
    return Array.from({ length: 1_500 }, (_, n) => ({
      id: `doc-${n}`,
      type: 'feature' as const,
      workspaceId: SHARED,
      // One title in sixty holds two of the words: with the few one-word titles whose body holds the
      // others, those rank first, and the rest are passed over.
      title: [...wordsOfTitle(next(3), next(60) === 0), ...Array.from({ length: next(4) }, () => fillers[next(fillers.length)]!)].join(' '),
      // A body holding every word does so mostly as the start of longer words: those rank below an
      // unlikely one-word title whose body held them whole, so the one-word titles must be walked.
      body: bodies[n % 149 === 0 ? 5 : n % 30 === 1 ? 4 : next(4)]!,
    }));
  }

  it.each(['audit log export', 'export audit log', 'log export', 'audit log', 'audit expo', 'exp aud'])(
    '"%s", every limit: passing over titles whose body lacks a word keeps the top scores of scoring every document',
    (query) => {
      const docs = oneWordTitles();
      const big = new OrgSearchIndex();
      for (const doc of docs) big.upsert(doc);
      const expected = exhaustiveTopScores(docs, query, 50);
      for (let limit = 1; limit <= 50; limit += 1) {
        const scores = big.search({ query, workspaceIds: EVERYWHERE, limit }).map((hit) => hit.score);
        expect(scores, `limit ${limit}`).toEqual(expected.slice(0, limit));
      }
    },
  );

  it('finds a title again in a one-word query after a longer query weighed it for holding two words', () => {
    const index = new OrgSearchIndex();
    for (const title of ['Guest checkout', 'Checkout', 'Express checkout'])
      index.upsert({ id: title, type: 'feature', workspaceId: SHARED, title, body: 'Nothing to see here.' });
    expect(index.search({ query: 'guest checkout', workspaceIds: EVERYWHERE, limit: 10 })[0]!.title).toBe('Guest checkout');
    expect(index.search({ query: 'checkout', workspaceIds: EVERYWHERE, limit: 10 }).map((hit) => hit.title).sort()).toEqual(['Checkout', 'Express checkout', 'Guest checkout']);
  });

  it('keeps matching every document after writes grow the index past what earlier queries cached', () => {
    const docs = corpus();
    const big = new OrgSearchIndex();
    for (const doc of docs.slice(0, 600)) big.upsert(doc);
    const queries = ['guest checkout', 'checkout', 'payment refund email', 'pay', 'notif order', 'notif'];
    for (const query of queries) big.search({ query, workspaceIds: EVERYWHERE, limit: 10 });
    // New slots whose titles hold some of the words cached above and not others.
    for (const doc of docs.slice(600)) big.upsert(doc);
    big.remove('doc-3');
    const kept = docs.filter((doc) => doc.id !== 'doc-3');
    for (const query of queries) {
      expect(big.search({ query, workspaceIds: EVERYWHERE, limit: 10 }).map((hit) => hit.score)).toEqual(exhaustiveTopScores(kept, query));
    }
  });
});
