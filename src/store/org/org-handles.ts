import { ColdFeed } from './cold-feed.js';
import type { OrgHandle, RepoPlace } from './org-handle.js';
import { DirectReader, type DirectRecord } from './read-direct.js';

/** Direct reads under way at once (each runs git three times); more wait for a turn, not for the catalog. */
const MAX_DIRECT_READS = 8;

/** Opens an organization; `feed` takes the artifacts a build from the root parses. */
export type OpenOrg = (key: string, place: RepoPlace, feed: ColdFeed) => Promise<OrgHandle>;
/** Releases what an open organization holds (its saved state, its search index); it is not used any more. */
export type CloseOrg = (handle: OrgHandle) => Promise<void>;

/** How many organizations stay open, and for how long one nobody uses stays open. */
export interface OpenLimits {
  /** Past this many, the least recently used one nobody uses is closed; 0: no limit. */
  readonly maxOpen: number;
  /** An organization nobody used for this long is closed; 0: never. */
  readonly idleMs: number;
}

/** Use of an organization, until released: it is not closed meanwhile. */
export interface Lease {
  readonly handle: Promise<OrgHandle>;
  release(): void;
}

interface Entry {
  readonly handle: Promise<OrgHandle>;
  /** Uses under way: reads, writes, streams, and the open itself. Closed only at 0. */
  leases: number;
  lastUsed: number;
}

/**
 * The organizations a store has opened or is opening, one open at a time each, at most
 * `maxOpen` of them (see OpenLimits). While one opens (its catalog loading, or building from
 * Git for seconds), reads by id are answered from Git directly (read-direct.ts) and the build's
 * parsed artifacts can be taken (cold-feed.ts). An organization closed reopens on next use from
 * its saved state, after the close finished (so the saved state is never opened twice at once).
 */
export class OrgHandles {
  /** In order of last use, least recent first (an entry used moves to the end). */
  readonly #entries = new Map<string, Entry>();
  readonly #opening = new Map<string, { readonly reader: DirectReader; readonly feed: ColdFeed }>();
  readonly #closing = new Map<string, Promise<void>>();
  #directReads = 0;
  readonly #waitingReads: (() => void)[] = [];
  readonly #idleSweep: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(
    private readonly open: OpenOrg,
    private readonly close: CloseOrg,
    private readonly limits: OpenLimits = { maxOpen: 0, idleMs: 0 },
  ) {
    if (limits.idleMs > 0) {
      this.#idleSweep = setInterval(() => this.#closeIdle(), Math.min(limits.idleMs / 2, 30_000));
      this.#idleSweep.unref();
    }
  }

  /** The organization, opened on first use; a failed open is tried again next time. */
  get(key: string, place: RepoPlace): Promise<OrgHandle> {
    const lease = this.lease(key, place);
    lease.release();
    return lease.handle;
  }

  /**
   * The organization, kept open until `release` (called once). `touch: false` is a use that
   * does not count as one for closing idle organizations (following `main` in the background).
   */
  lease(key: string, place: RepoPlace, touch = true): Lease {
    const entry = this.#entries.get(key) ?? this.#start(key, place);
    entry.leases++;
    if (touch) {
      entry.lastUsed = Date.now();
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    let released = false;
    return {
      handle: entry.handle,
      release: () => {
        if (released) return;
        released = true;
        entry.leases--;
        this.#closeOverLimit();
      },
    };
  }

  /** A lease on the organization if it is open (or opening) now, without opening it. */
  leaseIfOpen(key: string): Lease | undefined {
    const entry = this.#entries.get(key);
    // An entry exists, so the place is never used to open it.
    return entry ? this.lease(key, { gitdir: '', ref: '' }, false) : undefined;
  }

  isOpen(key: string): boolean {
    return this.#entries.has(key);
  }

  /** An organization this store just created. */
  add(handle: OrgHandle): void {
    this.#entries.set(handle.orgId, { handle: Promise.resolve(handle), leases: 0, lastUsed: Date.now() });
    this.#closeOverLimit();
  }

  keys(): string[] {
    return [...this.#entries.keys()];
  }

  values(): Promise<OrgHandle>[] {
    return [...this.#entries.values()].map((entry) => entry.handle);
  }

  /** Closes under way, which a store closing waits for. */
  closing(): Promise<void>[] {
    return [...this.#closing.values()];
  }

  /** Stops closing organizations, idle or over the limit (the store closes them all itself). */
  stop(): void {
    this.#stopped = true;
    clearInterval(this.#idleSweep);
  }

  /** Opens once a close of the same organization under way ended; the open holds a lease until it settles. */
  #start(key: string, place: RepoPlace): Entry {
    const opening = { reader: new DirectReader(place), feed: new ColdFeed() };
    this.#opening.set(key, opening);
    const closing = this.#closing.get(key);
    const handle = closing
      ? closing.then(() => this.open(key, place, opening.feed))
      : this.open(key, place, opening.feed);
    const entry: Entry = { handle, leases: 1, lastUsed: Date.now() };
    this.#entries.set(key, entry);
    const opened = () => {
      this.#opening.delete(key);
      opening.feed.end();
      entry.leases--;
    };
    handle.then(
      () => {
        opened();
        this.#closeOverLimit();
      },
      () => {
        opened();
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    return entry;
  }

  /** Closes the least recently used organizations nobody uses, down to `maxOpen`. */
  #closeOverLimit(): void {
    if (this.#stopped || this.limits.maxOpen <= 0 || this.#entries.size <= this.limits.maxOpen) return;
    let over = this.#entries.size - this.limits.maxOpen;
    for (const [key, entry] of this.#entries) {
      if (over === 0) break;
      if (entry.leases > 0) continue;
      this.#closeEntry(key, entry);
      over--;
    }
  }

  #closeIdle(): void {
    const before = Date.now() - this.limits.idleMs;
    for (const [key, entry] of this.#entries) {
      // In order of last use: the first one used since is followed by no idle one.
      if (entry.lastUsed > before) break;
      if (entry.leases === 0) this.#closeEntry(key, entry);
    }
  }

  /** From now on a use opens the organization again, once this close ends. */
  #closeEntry(key: string, entry: Entry): void {
    this.#entries.delete(key);
    const earlier = this.#closing.get(key) ?? Promise.resolve();
    const closed = earlier
      .then(() => entry.handle)
      .then((handle) => this.close(handle))
      .catch(() => undefined)
      .finally(() => {
        if (this.#closing.get(key) === closed) this.#closing.delete(key);
      });
    this.#closing.set(key, closed);
  }

  /**
   * While the organization opens, an artifact read from Git without waiting for the catalog
   * (starting the open if nobody has); undefined once it is open, or when Git alone cannot answer.
   */
  async readDirect(key: string, place: RepoPlace, id: string): Promise<DirectRecord | undefined> {
    if (this.#entries.has(key) && !this.#opening.has(key)) return undefined;
    const lease = this.lease(key, place);
    lease.handle.catch(() => undefined);
    try {
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
    } finally {
      lease.release();
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
