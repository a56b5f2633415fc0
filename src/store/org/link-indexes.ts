import { LinkIndex } from '../catalog/index.js';
import { linkedIds } from '../layout/index.js';
import type { ArtifactRecord, CommitResult } from '../types.js';

/** What readers ask of an organization's links. */
export type OrgLinks = Pick<LinkIndex, 'linksFrom' | 'linksTo'>;

interface Entry {
  readonly index: LinkIndex;
  ready: Promise<LinkIndex>;
  /** Changes seen while the index is built from the bodies, applied once it is. */
  pending?: CommitResult[];
}

const apply = (index: LinkIndex, orgId: string, result: CommitResult): void =>
  index.set(result.artifact.id, result.deleted ? [] : linkedIds(result.artifact.body, orgId));

/**
 * Each organization's link index, built from all bodies on first use and then kept current by
 * every commit the store reports (its own and other processes'), so it never walks history.
 */
export class LinkIndexes {
  readonly #entries = new Map<string, Entry>();

  /** `readAll` hands every artifact to `take`, a window at a time, yielding to the event loop between windows. */
  constructor(private readonly readAll: (orgId: string, take: (records: readonly ArtifactRecord[]) => Promise<void>) => Promise<unknown>) {}

  get(orgId: string): Promise<OrgLinks> {
    const key = orgId.toLowerCase();
    const found = this.#entries.get(key);
    if (found) return found.ready;
    const index = new LinkIndex();
    const entry: Entry = { index, pending: [], ready: Promise.resolve(index) };
    // A window at a time: at 100,000 artifacts, reading every body's links in one go held the
    // event loop for about half a second on the first read after a start.
    const take = async (records: readonly ArtifactRecord[]) => {
      for (const record of records) index.set(record.id, linkedIds(record.body, key));
    };
    entry.ready = this.readAll(key, take).then(() => {
      for (const result of entry.pending ?? []) apply(index, key, result);
      delete entry.pending;
      return index;
    });
    entry.ready.catch(() => this.#entries.delete(key));
    this.#entries.set(key, entry);
    return entry.ready;
  }

  /** A commit changed (or removed) an artifact. */
  follow(orgId: string, result: CommitResult): void {
    const entry = this.#entries.get(orgId.toLowerCase());
    if (!entry) return;
    if (entry.pending) entry.pending.push(result);
    else apply(entry.index, orgId.toLowerCase(), result);
  }
}
