import { InvalidInputError } from '../errors.js';
import { OrgSearchIndex } from './org-search-index.js';
import { readSavedIndex, writeSavedIndex } from './saved-index.js';
import type { IndexedDocument, SearchAnswer, SearchQuery } from './types.js';

/** What the owner of the indexes is asked, in order; each answer follows its request's order. */
export type IndexRequest =
  | { readonly op: 'reset'; readonly orgId: string }
  | { readonly op: 'add'; readonly orgId: string; readonly docs: readonly IndexedDocument[] }
  | { readonly op: 'upsert'; readonly orgId: string; readonly doc: IndexedDocument }
  | { readonly op: 'remove'; readonly orgId: string; readonly id: string }
  | { readonly op: 'search'; readonly orgId: string; readonly query: SearchQuery }
  | { readonly op: 'size'; readonly orgId: string }
  /** Keeps only these documents (the rest left main while the index was saved). */
  | { readonly op: 'retain'; readonly orgId: string; readonly ids: readonly string[] }
  | { readonly op: 'save'; readonly orgId: string; readonly dir: string; readonly version: string }
  /** Forgets the index: its organization was closed (its memory goes back to the worker's heap). */
  | { readonly op: 'drop'; readonly orgId: string }
  /** Loads the saved index; answers its version, or null when there is none (nothing changes then). */
  | { readonly op: 'restore'; readonly orgId: string; readonly dir: string };

type Value = SearchAnswer | number | string | null;

const READS: ReadonlySet<IndexRequest['op']> = new Set(['search', 'size']);

/**
 * Why a request failed: bad input from the caller, an organization this host does not hold
 * (its indexes went with a lost worker), or anything else.
 */
export type IndexFailure = 'invalid-input' | 'not-loaded' | 'failed';

/** An answer that crosses a thread: typed errors travel as their kind and message. */
export type IndexReply =
  | { readonly ok: true; readonly value: Value }
  | { readonly ok: false; readonly failure: IndexFailure; readonly message: string };

/** A search or size asked of an organization whose index this host does not hold. */
export class IndexNotLoadedError extends Error {
  override readonly name = 'IndexNotLoadedError';
}

/**
 * The search indexes of all organizations, driven by requests: the same code serves in this
 * thread (tests, small setups) and in the worker thread that owns the indexes in production.
 */
export class IndexHost {
  readonly #indexes = new Map<string, OrgSearchIndex>();
  /** Requests run one after another, so a change sent during a save or a restore waits for it. */
  #queue: Promise<unknown> = Promise.resolve();
  /** Queued requests other than saves: a read must wait for them, not for a save. */
  #queuedOthers = 0;

  /**
   * A save exports a whole index (seconds at 100,000 documents) without changing it, so a search
   * or size sent while only saves are under way is answered at once: it sees every change sent
   * before it. Anything else keeps its place in the queue.
   */
  handle(request: IndexRequest): Promise<IndexReply> {
    if (READS.has(request.op) && this.#queuedOthers === 0) return this.#answer(request);
    const counted = request.op !== 'save';
    if (counted) this.#queuedOthers += 1;
    const reply = this.#queue.then(() => this.#answer(request));
    this.#queue = reply.finally(() => {
      if (counted) this.#queuedOthers -= 1;
    });
    return reply;
  }

  async #answer(request: IndexRequest): Promise<IndexReply> {
    try {
      return { ok: true, value: await this.#run(request) };
    } catch (error) {
      const failure =
        error instanceof InvalidInputError
          ? 'invalid-input'
          : error instanceof IndexNotLoadedError
            ? 'not-loaded'
            : 'failed';
      return { ok: false, failure, message: error instanceof Error ? error.message : String(error) };
    }
  }

  async #run(request: IndexRequest): Promise<Value> {
    switch (request.op) {
      case 'retain':
        this.#indexes.get(request.orgId)?.retain(new Set(request.ids));
        return null;
      case 'save': {
        const index = this.#indexes.get(request.orgId);
        if (index) await writeSavedIndex(request.dir, request.version, await index.snapshot());
        return null;
      }
      case 'restore': {
        const saved = await readSavedIndex(request.dir);
        if (!saved) return null;
        this.#indexes.set(request.orgId, OrgSearchIndex.fromSnapshot(saved.snapshot));
        return saved.version;
      }
      case 'drop':
        this.#indexes.delete(request.orgId);
        return null;
      case 'reset':
        this.#indexes.set(request.orgId, new OrgSearchIndex());
        return null;
      case 'add':
        for (const doc of request.docs) this.#index(request.orgId).upsert(doc);
        return null;
      case 'upsert':
        this.#indexes.get(request.orgId)?.upsert(request.doc);
        return null;
      case 'remove':
        this.#indexes.get(request.orgId)?.remove(request.id);
        return null;
      case 'search':
        return this.#loaded(request.orgId).search(request.query);
      case 'size':
        return this.#loaded(request.orgId).size;
    }
  }

  /** Reads never make an index: an empty one would answer "no results" for a lost one. */
  #loaded(orgId: string): OrgSearchIndex {
    const index = this.#indexes.get(orgId);
    if (!index) throw new IndexNotLoadedError(`the search index of organization ${orgId} is not loaded`);
    return index;
  }

  #index(orgId: string): OrgSearchIndex {
    let index = this.#indexes.get(orgId);
    if (!index) {
      index = new OrgSearchIndex();
      this.#indexes.set(orgId, index);
    }
    return index;
  }
}

/** The error an answer carries, as the typed error the rest of the service expects. */
export function replyValue(reply: IndexReply): Value {
  if (reply.ok) return reply.value;
  switch (reply.failure) {
    case 'invalid-input':
      throw new InvalidInputError(reply.message);
    case 'not-loaded':
      throw new IndexNotLoadedError(reply.message);
    case 'failed':
      throw new Error(reply.message);
  }
}
