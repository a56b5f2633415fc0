import { OrgSearchIndex } from './org-search-index.js';
import type { IndexedDocument } from './types.js';

type Change = { readonly kind: 'upsert'; readonly doc: IndexedDocument } | { readonly kind: 'remove'; readonly id: string };

interface Build {
  readonly index: Promise<OrgSearchIndex>;
  /** Changes committed while the build was loading, replayed in order once it has indexed. */
  readonly changes: Change[];
}

/**
 * The search indexes of all organizations, each built on first use from `load` (the
 * organization's artifacts on `main`) and kept in step by upsert/remove from the commit hook.
 */
export class SearchIndexes {
  readonly #load: (orgId: string) => Promise<readonly IndexedDocument[]>;
  readonly #built = new Map<string, OrgSearchIndex>();
  readonly #building = new Map<string, Build>();

  constructor(load: (orgId: string) => Promise<readonly IndexedDocument[]>) {
    this.#load = load;
  }

  /** The organization's index; concurrent first calls share one build, a failed build is retried next time. */
  forOrg(orgId: string): Promise<OrgSearchIndex> {
    const built = this.#built.get(orgId);
    if (built) return Promise.resolve(built);
    const building = this.#building.get(orgId);
    if (building) return building.index;
    const changes: Change[] = [];
    const index = this.#build(orgId, changes);
    this.#building.set(orgId, { index, changes });
    return index;
  }

  /** No-op for an organization not built yet: its first use loads the committed state. */
  upsert(orgId: string, doc: IndexedDocument): void {
    this.#apply(orgId, { kind: 'upsert', doc });
  }

  remove(orgId: string, id: string): void {
    this.#apply(orgId, { kind: 'remove', id });
  }

  /** Loads on a later tick, so the build is registered before `load` can fail or return. */
  async #build(orgId: string, changes: Change[]): Promise<OrgSearchIndex> {
    let docs: readonly IndexedDocument[];
    try {
      docs = await Promise.resolve().then(() => this.#load(orgId));
    } catch (error) {
      this.#building.delete(orgId);
      throw error;
    }
    // From here to the end nothing awaits, so no change can slip between replay and hand-over.
    const index = new OrgSearchIndex();
    for (const doc of docs) index.upsert(doc);
    for (const change of changes) applyChange(index, change);
    this.#built.set(orgId, index);
    this.#building.delete(orgId);
    return index;
  }

  #apply(orgId: string, change: Change): void {
    const built = this.#built.get(orgId);
    if (built) applyChange(built, change);
    else this.#building.get(orgId)?.changes.push(change);
  }
}

function applyChange(index: OrgSearchIndex, change: Change): void {
  if (change.kind === 'upsert') index.upsert(change.doc);
  else index.remove(change.id);
}
