import { ColdFeed } from './cold-feed.js';
import type { OrgHandle } from './org-handle.js';
import { DirectReader, type DirectRecord } from './read-direct.js';

/** Direct reads under way at once (each runs git three times); more wait for a turn, not for the catalog. */
const MAX_DIRECT_READS = 8;

/** Opens an organization; `feed` takes the artifacts a build from the root parses. */
export type OpenOrg = (key: string, gitdir: string, feed: ColdFeed) => Promise<OrgHandle>;

/**
 * The organizations a store has opened or is opening, one open at a time each. While one opens
 * (its catalog loading, or building from Git for seconds), reads by id are answered from Git
 * directly (read-direct.ts) and the build's parsed artifacts can be taken (cold-feed.ts).
 */
export class OrgHandles {
  readonly #handles = new Map<string, Promise<OrgHandle>>();
  readonly #opening = new Map<string, { readonly reader: DirectReader; readonly feed: ColdFeed }>();
  #directReads = 0;
  readonly #waitingReads: (() => void)[] = [];

  constructor(private readonly open: OpenOrg) {}

  /** The organization, opened on first use; a failed open is tried again next time. */
  get(key: string, gitdir: string): Promise<OrgHandle> {
    let handle = this.#handles.get(key);
    if (handle) return handle;
    const opening = { reader: new DirectReader(gitdir), feed: new ColdFeed() };
    this.#opening.set(key, opening);
    handle = this.open(key, gitdir, opening.feed);
    this.#handles.set(key, handle);
    const opened = () => {
      this.#opening.delete(key);
      opening.feed.end();
    };
    handle.then(opened, () => {
      opened();
      this.#handles.delete(key);
    });
    return handle;
  }

  /** An organization this store just created. */
  add(handle: OrgHandle): void {
    this.#handles.set(handle.orgId, Promise.resolve(handle));
  }

  keys(): string[] {
    return [...this.#handles.keys()];
  }

  values(): Promise<OrgHandle>[] {
    return [...this.#handles.values()];
  }

  /**
   * While the organization opens, an artifact read from Git without waiting for the catalog
   * (starting the open if nobody has); undefined once it is open, or when Git alone cannot answer.
   */
  async readDirect(key: string, gitdir: string, id: string): Promise<DirectRecord | undefined> {
    if (this.#handles.has(key) && !this.#opening.has(key)) return undefined;
    this.get(key, gitdir).catch(() => undefined);
    if (!this.#opening.has(key)) return undefined;
    await this.#turn();
    try {
      // The catalog may have become ready while this read waited for its turn.
      return await this.#opening.get(key)?.reader.read(id);
    } catch {
      return undefined;
    } finally {
      this.#endTurn();
    }
  }

  async #turn(): Promise<void> {
    if (this.#directReads < MAX_DIRECT_READS) {
      this.#directReads++;
      return;
    }
    // The read that ends hands its turn over (see #endTurn).
    await new Promise<void>((resolve) => this.#waitingReads.push(resolve));
  }

  #endTurn(): void {
    const next = this.#waitingReads.shift();
    if (next) next();
    else this.#directReads--;
  }

  /** The artifacts a build from the root parses from now on, if the organization is opening and nobody takes them yet. */
  takeFeed(key: string): ReturnType<ColdFeed['take']> {
    return this.#opening.get(key)?.feed.take();
  }
}
