import { LinkIndex } from '../catalog/index.js';
import { idsInOrg } from '../layout/index.js';
import type { ArtifactMeta, CommitResult } from '../types.js';

/** What readers ask of an organization's links. */
export type OrgLinks = Pick<LinkIndex, 'linksFrom' | 'linksTo'>;

interface Entry {
  readonly index: LinkIndex;
  ready: Promise<LinkIndex>;
  /** Changes seen while the index is built, applied once it is. */
  pending?: CommitResult[];
}

const apply = (index: LinkIndex, orgId: string, result: CommitResult): void =>
  index.set(result.artifact.id, result.deleted ? [] : idsInOrg(result.artifact.linkTargets ?? [], orgId));

/**
 * Each organization's link index, built on first use from the catalog (each entry keeps the
 * links of its body) and then kept current by every commit the store reports (its own and
 * other processes'), so it never reads a body or walks history.
 */
export class LinkIndexes {
  readonly #entries = new Map<string, Entry>();

  /** `metasOf` answers the organization's catalog at `main`, whose entries carry their links. */
  constructor(private readonly metasOf: (orgId: string) => Promise<Iterable<ArtifactMeta>>) {}

  get(orgId: string): Promise<OrgLinks> {
    const key = orgId.toLowerCase();
    const found = this.#entries.get(key);
    if (found) return found.ready;
    const index = new LinkIndex();
    const entry: Entry = { index, pending: [], ready: Promise.resolve(index) };
    entry.ready = this.metasOf(key).then((metas) => {
      for (const meta of metas) if (meta.linkTargets) index.set(meta.id, idsInOrg(meta.linkTargets, key));
      for (const result of entry.pending ?? []) apply(index, key, result);
      delete entry.pending;
      return index;
    });
    entry.ready.catch(() => this.#entries.delete(key));
    this.#entries.set(key, entry);
    return entry.ready;
  }

  /** The organization closed: its index goes with it, and is built again from the catalog when it reopens. */
  forget(orgId: string): void {
    this.#entries.delete(orgId.toLowerCase());
  }

  /** A commit changed (or removed) an artifact. */
  follow(orgId: string, result: CommitResult): void {
    const entry = this.#entries.get(orgId.toLowerCase());
    if (!entry) return;
    if (entry.pending) entry.pending.push(result);
    else apply(entry.index, orgId.toLowerCase(), result);
  }
}
