import { inThreadChannel, WorkerChannel, type IndexChannel } from './index-channel.js';
import { IndexNotLoadedError, replyValue, type IndexReply, type IndexRequest } from './index-host.js';
import { matchRanges } from './match-ranges.js';
import { savedIndexVersion } from './saved-index.js';
import type { IndexedDocument, SearchAnswer, SearchQuery } from './types.js';

/** One organization's index as callers see it: answers come back in the order asked. */
export interface OrgSearch {
  search(query: SearchQuery): Promise<SearchAnswer>;
  size(): Promise<number>;
  /** See match-ranges.ts; answered in this thread. */
  matchRanges(query: string, text: string): [number, number][];
}

/** Where indexes are saved, and how a saved one is brought up to `main`. */
export interface SavedIndexOptions {
  /** The organization's saved-index directory. */
  dir(orgId: string): string;
  /**
   * What `main` changed after commit `version` (the last artifact change a saved index holds):
   * the documents changed since, the ids of all documents on `main` (omitted when nothing
   * changed), and the last artifact change they bring the index to; undefined when `version`
   * is not in `main`'s history (the index is then built again).
   */
  since(orgId: string, version: string): Promise<SavedIndexDelta | undefined>;
  /** Quiet time after the last change before the index is saved again. */
  readonly delayMs?: number;
}

export interface SavedIndexDelta {
  readonly docs: readonly IndexedDocument[];
  readonly ids?: readonly string[];
  readonly version: string | null;
}

/**
 * Loads an organization's documents on `main`, handing them to `take` in batches as they are
 * read (the index builds meanwhile); resolves with the ids of all of them and the commit of the
 * last artifact change they reflect.
 */
export type LoadDocuments = (
  orgId: string,
  take: (docs: readonly IndexedDocument[]) => Promise<void>,
) => Promise<LoadedDocuments>;

export interface LoadedDocuments {
  readonly ids: readonly string[];
  readonly version: string | null;
}

export interface SearchIndexesOptions {
  /** 'worker' (the service) keeps the indexes off the event loop; 'main' runs them in this thread. */
  readonly thread?: 'worker' | 'main';
  /**
   * Where requests go instead of what `thread` picks; `onLost` is to be called when the indexes
   * behind the channel are gone (its worker was lost), so that each is built again on next use.
   */
  readonly openChannel?: (onLost: () => void) => IndexChannel;
  readonly saved?: SavedIndexOptions;
  /**
   * Called on each use of an organization's index (a search, a size): its owner keeps the
   * organization open, and calls drop() when it closes it.
   */
  readonly onUse?: (orgId: string) => void;
}

/** Documents handed to the indexes per request while building, so no single message is huge. */
const BUILD_BATCH = 250;
const SAVE_DELAY_MS = 30_000;

type Change = Extract<IndexRequest, { op: 'upsert' | 'remove' }>;
/** A change queued while its organization builds, with the commit it came from. */
type Queued = { readonly request: Change; readonly version: string | undefined };

/**
 * The search indexes of all organizations, each built on first use (from its saved index
 * brought up to `main`, or from `load`: the organization's artifacts on `main`) and kept in
 * step by upsert/remove from the commit hook. Requests reach the indexes in the order they are
 * made, so a search sent after an upsert sees it; this thread only loads documents and waits.
 */
export class SearchIndexes {
  readonly #load: LoadDocuments;
  readonly #channel: IndexChannel;
  readonly #saved: SavedIndexOptions | undefined;
  readonly #onUse: ((orgId: string) => void) | undefined;
  readonly #built = new Set<string>();
  /** Changes committed while an organization's documents were loading, replayed once they are sent. */
  readonly #building = new Map<string, { readonly ready: Promise<OrgSearch>; readonly changes: Queued[] }>();
  /** Per built organization, the commit its index reflects (what a save records). */
  readonly #versions = new Map<string, string | null>();
  readonly #saveTimers = new Map<string, NodeJS.Timeout>();
  readonly #savesUnderWay = new Set<Promise<void>>();
  /** Saves of dropped indexes under way: the organization's next build restores what they write. */
  readonly #dropSaves = new Map<string, Promise<void>>();

  constructor(load: LoadDocuments, options: SearchIndexesOptions = {}) {
    this.#load = load;
    this.#saved = options.saved;
    this.#onUse = options.onUse;
    const onLost = () => this.#built.clear();
    this.#channel =
      options.openChannel?.(onLost) ?? (options.thread === 'worker' ? new WorkerChannel(onLost) : inThreadChannel());
  }

  /**
   * The organization's index once built; concurrent first calls share one build, a failed
   * build is retried next time. Only callers that search wait for it.
   */
  forOrg(orgId: string): Promise<OrgSearch> {
    this.#onUse?.(orgId);
    if (this.#built.has(orgId)) return Promise.resolve(this.#handle(orgId));
    const building = this.#building.get(orgId);
    if (building) return building.ready;
    const changes: Queued[] = [];
    const ready = this.#build(orgId, changes);
    this.#building.set(orgId, { ready, changes });
    return ready;
  }

  /**
   * Starts the worker now (a service calls this when it starts), so that the first search after
   * a start does not also wait for a thread to boot. It keeps no process alive by itself.
   */
  prepare(): void {
    this.#channel.prepare();
  }

  /** No-op for an organization not built yet: its first use loads the committed state. */
  upsert(orgId: string, doc: IndexedDocument, version?: string): void {
    this.#apply({ op: 'upsert', orgId, doc }, version);
  }

  remove(orgId: string, id: string, version?: string): void {
    this.#apply({ op: 'remove', orgId, id }, version);
  }

  /**
   * Forgets the organization's index (it was closed), saved first if it changed since its last
   * save, so that it is restored quickly when used again. One being built is dropped once built;
   * a search through a handle taken before builds it again (see #read).
   */
  drop(orgId: string): void {
    const building = this.#building.get(orgId);
    if (building) {
      void building.ready.then(
        () => this.drop(orgId),
        () => undefined,
      );
      return;
    }
    if (!this.#built.has(orgId)) return;
    const timer = this.#saveTimers.get(orgId);
    if (timer) {
      clearTimeout(timer);
      this.#saveTimers.delete(orgId);
      // Sent now, before the drop below: the host answers requests in order.
      const save = this.#save(orgId).catch(() => undefined);
      this.#track(save);
      this.#dropSaves.set(orgId, save);
      void save.finally(() => {
        if (this.#dropSaves.get(orgId) === save) this.#dropSaves.delete(orgId);
      });
    }
    this.#built.delete(orgId);
    this.#versions.delete(orgId);
    void this.#channel.send({ op: 'drop', orgId }).catch(() => undefined);
  }

  /** Saves what changed since the last save, then stops the indexes. */
  async close(): Promise<void> {
    const pending = [...this.#saveTimers.keys()];
    for (const timer of this.#saveTimers.values()) clearTimeout(timer);
    this.#saveTimers.clear();
    await Promise.allSettled([...pending.map((orgId) => this.#save(orgId)), ...this.#savesUnderWay]);
    await this.#channel.close();
  }

  /** Loads on a later tick, so the build is registered before `load` can fail or return. */
  async #build(orgId: string, changes: Queued[]): Promise<OrgSearch> {
    try {
      await Promise.resolve();
      await this.#dropSaves.get(orgId);
      const restored = this.#saved ? await this.#restore(orgId) : undefined;
      const sent: Promise<IndexReply>[] = [];
      const add = async (docs: readonly IndexedDocument[]) => {
        for (let i = 0; i < docs.length; i += BUILD_BATCH) {
          sent.push(this.#channel.send({ op: 'add', orgId, docs: docs.slice(i, i + BUILD_BATCH) }));
          // Copying a batch to the worker takes the thread a while: let requests in between. Changes
          // committed meanwhile queue in `changes` and are replayed after the last batch.
          await new Promise((resolve) => setImmediate(resolve));
        }
      };
      let loaded: LoadedDocuments | SavedIndexDelta;
      if (restored) {
        await add(restored.docs);
        loaded = restored;
      } else {
        // The index fills while the documents are still being read.
        sent.push(this.#channel.send({ op: 'reset', orgId }));
        loaded = await this.#load(orgId, add);
      }
      // From here to `#built.add` nothing awaits, so no change can slip between replay and hand-over.
      if (loaded.ids) sent.push(this.#channel.send({ op: 'retain', orgId, ids: loaded.ids }));
      for (const change of changes) sent.push(this.#channel.send(change.request));
      this.#built.add(orgId);
      this.#building.delete(orgId);
      this.#versions.set(orgId, changes.findLast((change) => change.version)?.version ?? loaded.version);
      for (const reply of await Promise.all(sent)) replyValue(reply);
      if (!restored || restored.docs.length > 0) this.#scheduleSave(orgId);
      return this.#handle(orgId);
    } catch (error) {
      this.#building.delete(orgId);
      this.#built.delete(orgId);
      throw error;
    }
  }

  /**
   * The saved index, loaded by the indexes, and what changed on `main` since: both at once, the
   * saved version being read from the manifest here.
   */
  async #restore(orgId: string): Promise<SavedIndexDelta | undefined> {
    const dir = this.#saved?.dir(orgId);
    const version = dir === undefined ? undefined : await savedIndexVersion(dir);
    // Without a saved index the build starts at once, taking documents while the store reads them.
    if (!this.#saved || dir === undefined || version === undefined) return undefined;
    const [restored, delta] = await Promise.all([
      this.#channel.send({ op: 'restore', orgId, dir }),
      this.#saved.since(orgId, version),
    ]);
    // Another process may have saved a newer index in between: the delta is for the older one.
    return replyValue(restored) === version ? delta : undefined;
  }

  #handle(orgId: string): OrgSearch {
    return {
      search: async (query) => (await this.#read(orgId, { op: 'search', orgId, query })) as SearchAnswer,
      size: async () => (await this.#read(orgId, { op: 'size', orgId })) as number,
      matchRanges,
    };
  }

  /**
   * A read through a handle taken before its worker was lost reaches the new worker, which does
   * not hold the index: it is built again from `main` and the read asked once more.
   */
  async #read(
    orgId: string,
    request: Extract<IndexRequest, { op: 'search' | 'size' }>,
  ): Promise<ReturnType<typeof replyValue>> {
    try {
      return replyValue(await this.#channel.send(request));
    } catch (error) {
      if (!(error instanceof IndexNotLoadedError)) throw error;
      this.#built.delete(orgId);
      await this.forOrg(orgId);
      return replyValue(await this.#channel.send(request));
    }
  }

  #apply(request: Change, version: string | undefined): void {
    if (this.#built.has(request.orgId)) {
      void this.#channel.send(request);
      if (version) this.#versions.set(request.orgId, version);
      this.#scheduleSave(request.orgId);
    } else {
      this.#building.get(request.orgId)?.changes.push({ request, version });
    }
  }

  /** At most one save per organization per delay: a save exports the whole index. */
  #scheduleSave(orgId: string): void {
    if (!this.#saved || this.#saveTimers.has(orgId)) return;
    const timer = setTimeout(() => {
      this.#saveTimers.delete(orgId);
      this.#track(this.#save(orgId).catch(() => undefined));
    }, this.#saved.delayMs ?? SAVE_DELAY_MS);
    timer.unref();
    this.#saveTimers.set(orgId, timer);
  }

  /** A save close() waits for. */
  #track(save: Promise<void>): void {
    this.#savesUnderWay.add(save);
    void save.finally(() => this.#savesUnderWay.delete(save));
  }

  async #save(orgId: string): Promise<void> {
    const version = this.#versions.get(orgId);
    if (!this.#saved || !version || !this.#built.has(orgId)) return;
    replyValue(await this.#channel.send({ op: 'save', orgId, dir: this.#saved.dir(orgId), version }));
  }
}
