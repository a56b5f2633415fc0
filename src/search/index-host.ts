import { InvalidInputError } from '../errors.js';
import { OrgSearchIndex } from './org-search-index.js';
import type { IndexedDocument, SearchHit, SearchQuery } from './types.js';

/** What the owner of the indexes is asked, in order; each answer follows its request's order. */
export type IndexRequest =
  | { readonly op: 'reset'; readonly orgId: string }
  | { readonly op: 'add'; readonly orgId: string; readonly docs: readonly IndexedDocument[] }
  | { readonly op: 'upsert'; readonly orgId: string; readonly doc: IndexedDocument }
  | { readonly op: 'remove'; readonly orgId: string; readonly id: string }
  | { readonly op: 'search'; readonly orgId: string; readonly query: SearchQuery }
  | { readonly op: 'size'; readonly orgId: string };

/** An answer that crosses a thread: typed errors travel as their code and message. */
export type IndexReply =
  | { readonly ok: true; readonly value: SearchHit[] | number | null }
  | { readonly ok: false; readonly invalidInput: boolean; readonly message: string };

/**
 * The search indexes of all organizations, driven by requests: the same code serves in this
 * thread (tests, small setups) and in the worker thread that owns the indexes in production.
 */
export class IndexHost {
  readonly #indexes = new Map<string, OrgSearchIndex>();

  handle(request: IndexRequest): IndexReply {
    try {
      return { ok: true, value: this.#run(request) };
    } catch (error) {
      return {
        ok: false,
        invalidInput: error instanceof InvalidInputError,
        message: error instanceof Error ? error.message : String(error),
      };
    }
  }

  #run(request: IndexRequest): SearchHit[] | number | null {
    switch (request.op) {
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
        return this.#index(request.orgId).search(request.query);
      case 'size':
        return this.#indexes.get(request.orgId)?.size ?? 0;
    }
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
export function replyValue(reply: IndexReply): SearchHit[] | number | null {
  if (reply.ok) return reply.value;
  throw reply.invalidInput ? new InvalidInputError(reply.message) : new Error(reply.message);
}
