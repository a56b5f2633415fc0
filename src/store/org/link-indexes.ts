import { LinkIndex } from '../catalog/index.js';
import { wikiKey } from '../../artifacts/index.js';
import { linkKeysInOrg } from '../layout/index.js';
import type { ArtifactMeta, CommitResult } from '../types.js';

/** What readers ask of an organization's links. */
export type OrgLinks = Pick<LinkIndex, 'linksFrom' | 'linksTo' | 'titled'>;

interface Entry {
  readonly index: LinkIndex;
  ready: Promise<LinkIndex>;
  /** Changes seen while the index is built, applied once it is. */
  pending?: CommitResult[];
}

/** An artifact as the index keeps it: its links in the organization, and its title for wiki links. */
const setArtifact = (index: LinkIndex, orgId: string, meta: ArtifactMeta): void =>
  index.set(meta.id, linkKeysInOrg(meta.linkTargets ?? [], orgId), wikiKey(meta.title));

const apply = (index: LinkIndex, orgId: string, result: CommitResult): void => {
  if (result.deleted) index.set(result.artifact.id, []);
  else setArtifact(index, orgId, result.artifact);
};

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
      for (const meta of metas) setArtifact(index, key, meta);
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
