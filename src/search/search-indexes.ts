import { createWordEncoder } from './analyze-document.js';
import { createTextEncoder } from './encoder.js';
import { inThreadChannel, WorkerChannel, type IndexChannel } from './index-channel.js';
import { replyValue, type IndexRequest } from './index-host.js';
import { matchRanges } from './match-ranges.js';
import type { IndexedDocument, SearchHit, SearchQuery } from './types.js';

/** One organization's index as callers see it: answers come back in the order asked. */
export interface OrgSearch {
  search(query: SearchQuery): Promise<SearchHit[]>;
  size(): Promise<number>;
  /** See match-ranges.ts; answered in this thread. */
  matchRanges(query: string, text: string): [number, number][];
}

export interface SearchIndexesOptions {
  /** 'worker' (the service) keeps the indexes off the event loop; 'main' runs them in this thread. */
  readonly thread?: 'worker' | 'main';
}

/** Documents handed to the indexes per request while building, so no single message is huge. */
const BUILD_BATCH = 1_000;

type Change = Extract<IndexRequest, { op: 'upsert' | 'remove' }>;

/**
 * The search indexes of all organizations, each built on first use from `load` (the
 * organization's artifacts on `main`) and kept in step by upsert/remove from the commit hook.
 * Requests go to the indexes in the order they are made, so a search sent after an upsert
 * sees it; the caller's thread only loads documents and waits for answers.
 */
export class SearchIndexes {
  readonly #load: (orgId: string) => Promise<readonly IndexedDocument[]>;
  readonly #channel: IndexChannel;
  readonly #encoder = createTextEncoder();
  readonly #encodeWord = createWordEncoder(this.#encoder);
  readonly #built = new Set<string>();
  /** Changes committed while an organization's documents were loading, replayed once they are sent. */
  readonly #building = new Map<string, { readonly ready: Promise<OrgSearch>; readonly changes: Change[] }>();

  constructor(load: (orgId: string) => Promise<readonly IndexedDocument[]>, options: SearchIndexesOptions = {}) {
    this.#load = load;
    this.#channel = options.thread === 'worker' ? new WorkerChannel(() => this.#built.clear()) : inThreadChannel();
  }

  /**
   * The organization's index once built; concurrent first calls share one build, a failed
   * build is retried next time. Only callers that search wait for it.
   */
  forOrg(orgId: string): Promise<OrgSearch> {
    if (this.#built.has(orgId)) return Promise.resolve(this.#handle(orgId));
    const building = this.#building.get(orgId);
    if (building) return building.ready;
    const changes: Change[] = [];
    const ready = this.#build(orgId, changes);
    this.#building.set(orgId, { ready, changes });
    return ready;
  }

  /** No-op for an organization not built yet: its first use loads the committed state. */
  upsert(orgId: string, doc: IndexedDocument): void {
    this.#apply({ op: 'upsert', orgId, doc });
  }

  remove(orgId: string, id: string): void {
    this.#apply({ op: 'remove', orgId, id });
  }

  close(): Promise<void> {
    return this.#channel.close();
  }

  /** Loads on a later tick, so the build is registered before `load` can fail or return. */
  async #build(orgId: string, changes: Change[]): Promise<OrgSearch> {
    try {
      const docs = await Promise.resolve().then(() => this.#load(orgId));
      // From here to `#built.add` nothing awaits, so no change can slip between replay and hand-over.
      const sent = [this.#channel.send({ op: 'reset', orgId })];
      for (let i = 0; i < docs.length; i += BUILD_BATCH) {
        sent.push(this.#channel.send({ op: 'add', orgId, docs: docs.slice(i, i + BUILD_BATCH) }));
      }
      for (const change of changes) sent.push(this.#channel.send(change));
      this.#built.add(orgId);
      this.#building.delete(orgId);
      for (const reply of await Promise.all(sent)) replyValue(reply);
      return this.#handle(orgId);
    } catch (error) {
      this.#building.delete(orgId);
      this.#built.delete(orgId);
      throw error;
    }
  }

  #handle(orgId: string): OrgSearch {
    return {
      search: async (query) => replyValue(await this.#channel.send({ op: 'search', orgId, query })) as SearchHit[],
      size: async () => replyValue(await this.#channel.send({ op: 'size', orgId })) as number,
      matchRanges: (query, text) => matchRanges(this.#encoder, this.#encodeWord, query, text),
    };
  }

  #apply(change: Change): void {
    if (this.#built.has(change.orgId)) void this.#channel.send(change);
    else this.#building.get(change.orgId)?.changes.push(change);
  }
}
