import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import { canRead } from '../access/index.js';
import type { Principal } from '../access/principal.js';
import { artifactUri } from '../tools/index.js';

/** How often an organization with subscribers is looked at for commits nobody here made. */
export const FOLLOW_SUBSCRIBED_MS = 250;

/** What changed, as the store tells it: an artifact of an organization, in a workspace. */
export interface ArtifactChange {
  readonly orgId: string;
  readonly id: string;
  readonly workspaceId: string;
}

export interface ResourceUpdatesDeps {
  /** Registers for every commit this process makes or notices; returns the unsubscribe. */
  readonly commits: (listener: (change: ArtifactChange) => void) => () => void;
  /** Looks at the organization's `main` now, so that other processes' commits are noticed (and told to `commits`). */
  readonly follow: (orgId: string) => Promise<void>;
  /** The caller's current roles: a notification is only sent about what they can read now. */
  readonly principalOf: (orgId: string, userId: string) => Promise<Principal | undefined>;
  /** Keeps an organization open (not closed as idle or least recently used) until the returned function is called. */
  readonly hold: (orgId: string) => () => void;
  readonly onError: (error: unknown) => void;
}

interface Subscriber {
  readonly orgId: string;
  readonly userId: string;
  /** The URIs it asked for; undefined when the SDK filters them itself (2026-07-28 listen streams). */
  readonly uris?: Set<string>;
  deliver(uri: string): void;
}

/**
 * Tells subscribed clients when an artifact changes, in both eras, from commits of any process:
 * 2025 sessions that called resources/subscribe, and 2026-07-28 `subscriptions/listen` streams
 * (through the v2 handler's event bus). Never about an artifact the subscriber cannot read: each
 * change is checked against the subscriber's roles at that moment.
 */
export class ResourceUpdates {
  readonly #deps: ResourceUpdatesDeps;
  readonly #subscribers = new Set<Subscriber>();
  /** Per organization with subscribers: how many, and what lets it close again once none are left. */
  readonly #holds = new Map<string, { count: number; release: () => void }>();
  /** Who is serving the request under way: the listen stream the SDK opens inside it is theirs. */
  readonly #requestScope = new AsyncLocalStorage<{ orgId: string; userId: string }>();
  /** Listen requests under way, until their stream is subscribed (see as()). */
  #opening = 0;
  readonly #unsubscribe: () => void;
  readonly #timer: NodeJS.Timeout;

  constructor(deps: ResourceUpdatesDeps) {
    this.#deps = deps;
    this.#unsubscribe = deps.commits((change) => void this.#changed(change));
    this.#timer = setInterval(() => this.#followSubscribed(), FOLLOW_SUBSCRIBED_MS);
    this.#timer.unref();
  }

  /** A 2025 session's subscriptions, to hand to its server; `close` when the session ends. */
  session(
    orgId: string,
    userId: string,
    send: (uri: string) => Promise<void>,
  ): { add(uri: string): void; remove(uri: string): void; close(): void } {
    const subscriber: Subscriber = {
      orgId,
      userId,
      uris: new Set(),
      deliver: (uri) => void send(uri).catch(this.#deps.onError),
    };
    return {
      add: (uri) => {
        subscriber.uris!.add(uri);
        this.#add(subscriber);
      },
      remove: (uri) => {
        subscriber.uris!.delete(uri);
        if (subscriber.uris!.size === 0) this.#remove(subscriber);
      },
      close: () => this.#remove(subscriber),
    };
  }

  /**
   * Runs a 2026-07-28 `subscriptions/listen` request as `scope`'s, so that the stream it opens is
   * bound to them. Only those, and the storage is disabled again once none is being opened: on
   * Node 20 and 22 an enabled AsyncLocalStorage puts a hook on every promise of the process,
   * which cost every tool call of both eras about a tenth of its time on the event loop.
   */
  async as<T>(scope: { orgId: string; userId: string }, work: () => Promise<T>): Promise<T> {
    this.#opening++;
    try {
      return await this.#requestScope.run(scope, work);
    } finally {
      if (--this.#opening === 0) this.#requestScope.disable();
    }
  }

  /**
   * The event bus of the v2 handler. The SDK subscribes one listener per open listen stream,
   * inside the request that opens it, and filters by the URIs the stream asked for; this bus
   * binds each listener to the request's user and delivers only what they can read.
   */
  readonly bus: ServerEventBus = {
    publish: () => undefined,
    subscribe: (listener: (event: ServerEvent) => void) => {
      const scope = this.#requestScope.getStore();
      if (!scope) return () => undefined;
      const subscriber: Subscriber = { ...scope, deliver: (uri) => listener({ kind: 'resource_updated', uri }) };
      this.#add(subscriber);
      return () => this.#remove(subscriber);
    },
  };

  close(): void {
    clearInterval(this.#timer);
    this.#unsubscribe();
    for (const subscriber of [...this.#subscribers]) this.#remove(subscriber);
  }

  /** A subscribed organization stays open: closing it would stop following its commits. */
  #add(subscriber: Subscriber): void {
    if (this.#subscribers.has(subscriber)) return;
    this.#subscribers.add(subscriber);
    const held = this.#holds.get(subscriber.orgId);
    if (held) held.count += 1;
    else this.#holds.set(subscriber.orgId, { count: 1, release: this.#deps.hold(subscriber.orgId) });
  }

  #remove(subscriber: Subscriber): void {
    if (!this.#subscribers.delete(subscriber)) return;
    const held = this.#holds.get(subscriber.orgId)!;
    held.count -= 1;
    if (held.count > 0) return;
    this.#holds.delete(subscriber.orgId);
    held.release();
  }

  async #changed(change: ArtifactChange): Promise<void> {
    const uri = artifactUri(change.orgId, change.id);
    const roles = new Map<string, Promise<Principal | undefined>>();
    for (const subscriber of this.#subscribers) {
      if (subscriber.orgId !== change.orgId || (subscriber.uris && !subscriber.uris.has(uri))) continue;
      let principal = roles.get(subscriber.userId);
      if (!principal)
        roles.set(subscriber.userId, (principal = this.#deps.principalOf(change.orgId, subscriber.userId)));
      try {
        const current = await principal;
        if (current && canRead(current, change.workspaceId)) subscriber.deliver(uri);
      } catch (error) {
        this.#deps.onError(error);
      }
    }
  }

  #followSubscribed(): void {
    const orgIds = new Set([...this.#subscribers].map((subscriber) => subscriber.orgId));
    for (const orgId of orgIds) this.#deps.follow(orgId).catch(this.#deps.onError);
  }
}
