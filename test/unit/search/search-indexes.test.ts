import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SearchIndexes,
  type IndexedDocument,
  type LoadDocuments,
  type SearchHit,
  type SearchIndexesOptions,
} from '../../../src/search/index.js';
import { InvalidInputError } from '../../../src/errors.js';
import { WorkerChannel } from '../../../src/search/index-channel.js';
import { byId, CORPUS, INTERNAL, SHARED } from './corpus.js';

const ORG_A = '11111111-1111-4111-8111-111111111111';
const ORG_B = '22222222-2222-4222-8222-222222222222';

const ids = (hits: SearchHit[]): string[] => hits.map((hit) => hit.id);
const query = (text: string) => ({ query: text, workspaceIds: new Set([SHARED, INTERNAL]), limit: 50 });

/** A load function over an in-memory "main" per organization, counting calls and able to hold a load open. */
function fakeMain(initial: Record<string, readonly IndexedDocument[]>) {
  const main = new Map(Object.entries(initial).map(([org, docs]) => [org, [...docs]]));
  const calls: string[] = [];
  let gate: Promise<void> | null = null;
  let failNext = false;
  return {
    calls,
    main,
    hold(): () => void {
      let release!: () => void;
      gate = new Promise((resolve) => (release = resolve));
      return () => {
        gate = null;
        release();
      };
    },
    failOnce(): void {
      failNext = true;
    },
    load: async (orgId: string): Promise<readonly IndexedDocument[]> => {
      calls.push(orgId);
      const snapshot = [...(main.get(orgId) ?? [])];
      if (gate) await gate;
      if (failNext) {
        failNext = false;
        throw new Error('repository unavailable');
      }
      return snapshot;
    },
  };
}

/** A load that reads every document first, then hands them over in one batch. */
const loadAll =
  (
    read: (orgId: string) => Promise<readonly IndexedDocument[]>,
    version: () => string | null = () => null,
  ): LoadDocuments =>
  async (orgId, take) => {
    const docs = await read(orgId);
    await take(docs);
    return { ids: docs.map((doc) => doc.id), version: version() };
  };

const renamed = (doc: IndexedDocument, title: string): IndexedDocument => ({
  ...doc,
  title,
  body: `# ${title}\n\nRenamed.\n`,
});

describe.each<NonNullable<SearchIndexesOptions['thread']>>(['main', 'worker'])(
  'SearchIndexes in the %s thread',
  (thread) => {
    const opened: SearchIndexes[] = [];
    const open = (load: LoadDocuments) => {
      const indexes = new SearchIndexes(load, { thread });
      opened.push(indexes);
      return indexes;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((indexes) => indexes.close()));
    });

    it('builds an organization on first use only, sharing one build between concurrent callers', async () => {
      const store = fakeMain({ [ORG_A]: CORPUS });
      const indexes = open(loadAll(store.load));
      expect(store.calls).toEqual([]);
      const [first] = await Promise.all([indexes.forOrg(ORG_A), indexes.forOrg(ORG_A)]);
      await indexes.forOrg(ORG_A);
      expect(store.calls).toEqual([ORG_A]);
      expect(await first.size()).toBe(CORPUS.length);
      expect((await first.search(query('checkout')).then((answer) => answer.hits))[0]?.id).toBe('cap-checkout');
    });

    it('keeps organizations apart', async () => {
      const store = fakeMain({ [ORG_A]: CORPUS, [ORG_B]: [byId('feat-wallets')] });
      const indexes = open(loadAll(store.load));
      const b = await indexes.forOrg(ORG_B);
      expect(ids(await b.search(query('checkout')).then((answer) => answer.hits))).toEqual([]);
      expect(ids(await b.search(query('wallets')).then((answer) => answer.hits))).toEqual(['feat-wallets']);
      indexes.upsert(ORG_B, renamed(byId('feat-wallets'), 'Checkout wallets'));
      const inA = (await (await indexes.forOrg(ORG_A)).search(query('wallets')).then((answer) => answer.hits)).find(
        (hit) => hit.id === 'feat-wallets',
      );
      expect(inA?.title).toBe('Digital wallets');
      expect((await b.search(query('checkout')).then((answer) => answer.hits))[0]?.title).toBe('Checkout wallets');
    });

    it("drops a closed organization's index: a search through a handle taken before builds it again from what is committed", async () => {
      const store = fakeMain({ [ORG_A]: CORPUS, [ORG_B]: [byId('feat-wallets')] });
      const indexes = open(loadAll(store.load));
      const a = await indexes.forOrg(ORG_A);
      await indexes.forOrg(ORG_B);
      indexes.upsert(ORG_A, renamed(byId('cap-onboarding'), 'First steps'));
      indexes.drop(ORG_A);
      // Committed while closed: the index built again reads it.
      store.main.set(ORG_A, [
        ...CORPUS.filter((doc) => doc.id !== 'cap-onboarding'),
        renamed(byId('cap-onboarding'), 'Second steps'),
      ]);
      expect(ids(await a.search(query('second steps')).then((answer) => answer.hits))[0]).toBe('cap-onboarding');
      expect(store.calls).toEqual([ORG_A, ORG_B, ORG_A]);
      expect(await (await indexes.forOrg(ORG_B)).size()).toBe(1);
      indexes.drop(ORG_B);
      indexes.drop(ORG_B);
      expect(await (await indexes.forOrg(ORG_B)).size()).toBe(1);
      expect(store.calls).toEqual([ORG_A, ORG_B, ORG_A, ORG_B]);
    });

    it('ignores changes for an organization not built yet; its first use loads what is committed', async () => {
      const store = fakeMain({ [ORG_A]: CORPUS });
      const indexes = open(loadAll(store.load));
      indexes.upsert(ORG_A, { ...byId('feat-wallets'), id: 'never-committed' });
      indexes.remove(ORG_A, 'cap-checkout');
      expect(store.calls).toEqual([]);
      const index = await indexes.forOrg(ORG_A);
      expect(await index.size()).toBe(CORPUS.length);
      expect(ids(await index.search(query('checkout')).then((answer) => answer.hits))).toContain('cap-checkout');
    });

    it('answers a search sent right after a change with the change applied', async () => {
      const store = fakeMain({ [ORG_A]: CORPUS });
      const indexes = open(loadAll(store.load));
      const index = await indexes.forOrg(ORG_A);
      indexes.upsert(ORG_A, renamed(byId('cap-onboarding'), 'First steps'));
      const [renamedHits, oldHits] = await Promise.all([
        index.search(query('first steps')).then((answer) => answer.hits),
        index.search(query('welcome')).then((answer) => answer.hits),
      ]);
      expect(renamedHits[0]?.id).toBe('cap-onboarding');
      expect(ids(oldHits)).not.toContain('cap-onboarding');
      indexes.remove(ORG_A, 'cap-onboarding');
      expect(ids(await index.search(query('first steps')).then((answer) => answer.hits))).not.toContain(
        'cap-onboarding',
      );
    });

    it('replays changes committed while the build was loading, so none is lost', async () => {
      const store = fakeMain({ [ORG_A]: CORPUS });
      const indexes = open(loadAll(store.load));
      const release = store.hold();
      const building = indexes.forOrg(ORG_A);
      await Promise.resolve();
      await Promise.resolve();
      expect(store.calls).toEqual([ORG_A]);
      // Committed after the snapshot was read: the load does not see them.
      indexes.upsert(ORG_A, {
        ...byId('feat-wallets'),
        id: 'feat-crypto',
        title: 'Crypto payouts',
        body: '# Crypto payouts\n',
      });
      indexes.upsert(ORG_A, renamed(byId('cap-onboarding'), 'First steps'));
      indexes.remove(ORG_A, 'feat-refunds');
      release();
      const index = await building;
      expect(await index.size()).toBe(CORPUS.length);
      expect(ids(await index.search(query('crypto')).then((answer) => answer.hits))).toEqual(['feat-crypto']);
      expect(ids(await index.search(query('welcome')).then((answer) => answer.hits))).not.toContain('cap-onboarding');
      expect(ids(await index.search(query('refunds')).then((answer) => answer.hits))).not.toContain('feat-refunds');
    });

    it('indexes documents handed over in batches while the load goes on, keeping only the ids it ends with', async () => {
      const stale = { ...byId('feat-wallets'), id: 'feat-gone', title: 'Gone meanwhile', body: '# Gone meanwhile\n' };
      const indexes = open(async (_orgId, take) => {
        await take([stale, ...CORPUS.slice(0, 3)]);
        await take(CORPUS.slice(3));
        return { ids: CORPUS.map((doc) => doc.id), version: 'c1' };
      });
      const index = await indexes.forOrg(ORG_A);
      expect(ids(await index.search(query('gone meanwhile')).then((answer) => answer.hits))).toEqual([]);
      expect(await index.size()).toBe(CORPUS.length);
      expect(ids(await index.search(query('checkout')).then((answer) => answer.hits))[0]).toBe('cap-checkout');
    });

    it('reports a failed load to every waiter and tries again on the next use', async () => {
      const store = fakeMain({ [ORG_A]: CORPUS });
      const indexes = open(loadAll(store.load));
      store.failOnce();
      const results = await Promise.allSettled([indexes.forOrg(ORG_A), indexes.forOrg(ORG_A)]);
      expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
      expect(store.calls).toEqual([ORG_A]);
      const index = await indexes.forOrg(ORG_A);
      expect(await index.size()).toBe(CORPUS.length);
      expect(store.calls).toEqual([ORG_A, ORG_A]);
    });

    it('registers the build before a synchronously failing load throws, so it is retried', async () => {
      let attempts = 0;
      const indexes = open((orgId, take) => {
        attempts += 1;
        if (attempts === 1) throw new Error(`cannot open ${orgId}`);
        return take(CORPUS).then(() => ({ ids: CORPUS.map((doc) => doc.id), version: null }));
      });
      await expect(indexes.forOrg(ORG_A)).rejects.toThrow('cannot open');
      expect(await (await indexes.forOrg(ORG_A)).size()).toBe(CORPUS.length);
    });

    it('answers a bad query with the typed error, and keeps serving', async () => {
      const indexes = open(loadAll(fakeMain({ [ORG_A]: CORPUS }).load));
      const index = await indexes.forOrg(ORG_A);
      await expect(
        index.search({ ...query('checkout'), limit: 0 }).then((answer) => answer.hits),
      ).rejects.toBeInstanceOf(InvalidInputError);
      expect((await index.search(query('checkout')).then((answer) => answer.hits))[0]?.id).toBe('cap-checkout');
    });
  },
);

describe.each<NonNullable<SearchIndexesOptions['thread']>>(['main', 'worker'])(
  'saved SearchIndexes in the %s thread',
  (thread) => {
    let dir: string;
    const opened: SearchIndexes[] = [];
    beforeEach(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'specbase-search-'));
    });
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((indexes) => indexes.close()));
      await rm(dir, { recursive: true, force: true });
    });

    /** An organization whose main is CORPUS plus `extra`, at commit `head`; `since` answers from `changes`. */
    function savedMain() {
      const main = { head: 'c1', docs: [...CORPUS], changes: new Map<string, string[]>(), loads: 0 };
      const open = () => {
        const indexes = new SearchIndexes(
          loadAll(
            async () => {
              main.loads += 1;
              return main.docs;
            },
            () => main.head,
          ),
          {
            thread,
            saved: {
              dir: () => dir,
              since: async (_org, version) => {
                if (version === main.head) return { docs: [], version };
                const changed = main.changes.get(version);
                if (!changed) return undefined;
                return {
                  docs: main.docs.filter((d) => changed.includes(d.id)),
                  ids: main.docs.map((d) => d.id),
                  version: main.head,
                };
              },
            },
          },
        );
        opened.push(indexes);
        return indexes;
      };
      return { main, open };
    }

    it('restarts from the saved index, applying what main changed meanwhile, with the same ranking', async () => {
      const { main, open } = savedMain();
      const first = open();
      await first.forOrg(ORG_A);
      first.upsert(ORG_A, renamed(byId('cap-onboarding'), 'First steps'), 'c2');
      main.docs = main.docs.map((d) => (d.id === 'cap-onboarding' ? renamed(d, 'First steps') : d));
      main.head = 'c2';
      await first.close();
      expect(main.loads).toBe(1);

      // While stopped: one document added, one removed, one changed.
      main.docs = [
        ...main.docs.filter((d) => d.id !== 'feat-refunds'),
        { ...byId('feat-wallets'), id: 'feat-crypto', title: 'Crypto payouts', body: '# Crypto payouts\n' },
      ];
      main.docs = main.docs.map((d) => (d.id === 'cap-checkout' ? renamed(d, 'Basket') : d));
      main.changes.set('c2', ['feat-crypto', 'cap-checkout']);
      main.head = 'c3';

      const restarted = await open().forOrg(ORG_A);
      expect(main.loads).toBe(1);
      const rebuilt = await new SearchIndexes(loadAll(async () => main.docs)).forOrg(ORG_A);
      for (const text of ['crypto', 'refunds', 'basket', 'checkout', 'first steps', 'payments wallets', 'search']) {
        expect(await restarted.search(query(text)).then((answer) => answer.hits)).toEqual(
          await rebuilt.search(query(text)).then((answer) => answer.hits),
        );
      }
      expect(ids(await restarted.search(query('crypto')).then((answer) => answer.hits))).toEqual(['feat-crypto']);
      expect(await restarted.size()).toBe(main.docs.length);
    });

    it('saves a dropped index that changed since its last save, and restores it on next use without loading main', async () => {
      const { main, open } = savedMain();
      const indexes = open();
      await indexes.forOrg(ORG_A);
      indexes.upsert(ORG_A, renamed(byId('cap-onboarding'), 'First steps'), 'c2');
      main.docs = main.docs.map((d) => (d.id === 'cap-onboarding' ? renamed(d, 'First steps') : d));
      main.head = 'c2';
      indexes.drop(ORG_A);
      const again = await indexes.forOrg(ORG_A);
      expect(main.loads).toBe(1);
      expect(ids(await again.search(query('first steps')).then((answer) => answer.hits))[0]).toBe('cap-onboarding');
    });

    it('builds from main when the saved index is unreadable or its version left main', async () => {
      const { main, open } = savedMain();
      await open().forOrg(ORG_A);
      await opened.pop()!.close();
      main.head = 'rewritten';
      await open().forOrg(ORG_A);
      expect(main.loads).toBe(2);
      await opened.pop()!.close();
      await writeFile(path.join(dir, 'current.json'), '{ not json');
      const index = await open().forOrg(ORG_A);
      expect(main.loads).toBe(3);
      expect((await index.search(query('checkout')).then((answer) => answer.hits))[0]?.id).toBe('cap-checkout');
    });
  },
);

describe('SearchIndexes whose worker is lost', () => {
  it('builds each index again from main on next use, with what main holds then', async () => {
    const f = fakeMain({ [ORG_A]: CORPUS });
    let channel: WorkerChannel | undefined;
    const indexes = new SearchIndexes(loadAll(f.load), {
      openChannel: (onLost) => (channel = new WorkerChannel(onLost)),
    });
    try {
      expect(
        ids(await (await indexes.forOrg(ORG_A)).search(query('guest checkout')).then((answer) => answer.hits)),
      ).toContain('cap-checkout');
      await channel!.terminate();
      // Committed while the worker was gone: the rebuilt index has it, though no upsert reached an index.
      f.main
        .get(ORG_A)!
        .push({ ...byId('feat-wallets'), id: 'feat-crypto', title: 'Crypto payouts', body: '# Crypto payouts\n' });
      await expect
        .poll(async () =>
          ids(await (await indexes.forOrg(ORG_A)).search(query('crypto')).then((answer) => answer.hits)),
        )
        .toEqual(['feat-crypto']);
      expect(f.calls).toEqual([ORG_A, ORG_A]);
      expect(
        ids(await (await indexes.forOrg(ORG_A)).search(query('guest checkout')).then((answer) => answer.hits)),
      ).toContain('cap-checkout');
    } finally {
      await indexes.close();
    }
  });

  it('answers a search through a handle taken before the loss from an index built again, not from an empty one', async () => {
    const f = fakeMain({ [ORG_A]: CORPUS });
    let channel: WorkerChannel | undefined;
    const indexes = new SearchIndexes(loadAll(f.load), {
      openChannel: (onLost) => (channel = new WorkerChannel(onLost)),
    });
    try {
      const handle = await indexes.forOrg(ORG_A);
      await channel!.terminate();
      expect(ids(await handle.search(query('guest checkout')).then((answer) => answer.hits))).toContain('cap-checkout');
      expect(await handle.size()).toBe(CORPUS.length);
      expect(f.calls).toEqual([ORG_A, ORG_A]);
    } finally {
      await indexes.close();
    }
  });
});
