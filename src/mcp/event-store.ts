import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface EventStoreLimits {
  /** Events kept per session; the oldest go first. */
  readonly maxEvents: number;
  /** Bytes of messages kept per session, as sizeOf counts them. */
  readonly maxBytes: number;
}

/** Enough to resume any call of a normal session; a read result is at most about 1 MiB. */
export const DEFAULT_EVENT_STORE_LIMITS: EventStoreLimits = Object.freeze({
  maxEvents: 256,
  maxBytes: 4 * 1024 * 1024,
});

/**
 * Bytes of events kept for one user over all their sessions: a user at the session cap (100)
 * could otherwise hold 100 times a session's 4 MiB. Enough for a dozen large results in flight.
 */
export const DEFAULT_EVENT_BYTES_PER_USER = 16 * 1024 * 1024;

/**
 * About the bytes a message takes: its strings' lengths plus a little per value. Serializing it
 * to count exactly cost as much as the SDK's own serialization of it for the stream.
 */
function sizeOf(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (value === null || typeof value !== 'object') return 8;
  let size = 2;
  if (Array.isArray(value)) {
    for (const item of value) size += sizeOf(item) + 1;
  } else {
    for (const [key, item] of Object.entries(value)) size += key.length + 4 + sizeOf(item);
  }
  return size;
}

interface StoredEvent {
  readonly id: EventId;
  readonly streamId: StreamId;
  readonly seq: number;
  readonly message: JSONRPCMessage;
  readonly bytes: number;
  /** When it was stored among all the events of its user (see UserEventBudget). */
  readonly order: number;
}

/** How a session's store shares its user's budget (see UserEventBudget). */
interface BudgetShare {
  /** The order of the next event stored. */
  next(): number;
  /** After `store` kept an event of `bytes`; may have stores of the user drop their oldest. */
  stored(store: SessionEventStore, bytes: number): void;
  dropped(bytes: number): void;
  closed(store: SessionEventStore): void;
}

/**
 * The events of one Streamable HTTP session, so that a client whose stream broke mid-call can
 * reconnect with `Last-Event-ID` and still get its result. One store per session, bounded in
 * count and bytes, and gone with the session: resuming after the session ended is not possible,
 * as the MCP specification allows. Ids are `<stream>.<sequence>`: ordered within a stream.
 */
export class SessionEventStore implements EventStore {
  readonly #limits: EventStoreLimits;
  readonly #share: BudgetShare | undefined;
  readonly #events: StoredEvent[] = [];
  #seq = 0;
  #bytes = 0;

  constructor(limits: EventStoreLimits = DEFAULT_EVENT_STORE_LIMITS, share?: BudgetShare) {
    this.#limits = limits;
    this.#share = share;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const seq = ++this.#seq;
    const id = `${streamId}.${seq}`;
    const bytes = sizeOf(message);
    this.#events.push({ id, streamId, seq, message, bytes, order: this.#share?.next() ?? seq });
    this.#bytes += bytes;
    while (
      this.#events.length > this.#limits.maxEvents ||
      (this.#bytes > this.#limits.maxBytes && this.#events.length > 1)
    ) {
      this.dropOldest();
    }
    this.#share?.stored(this, bytes);
    return id;
  }

  /**
   * The order of the oldest event the user's budget may take from this store: any, but never
   * the newest event of the store that is storing (`storing`), which its stream is sending now.
   */
  oldestOrder(storing: boolean): number | undefined {
    return this.#events.length > (storing ? 1 : 0) ? this.#events[0]!.order : undefined;
  }

  dropOldest(): void {
    const event = this.#events.shift();
    if (!event) return;
    this.#bytes -= event.bytes;
    this.#share?.dropped(event.bytes);
  }

  /** The session ended: its events are gone, and no longer count against its user. */
  close(): void {
    this.#events.length = 0;
    this.#bytes = 0;
    this.#share?.closed(this);
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.#events.find((event) => event.id === eventId)?.streamId;
  }

  /** Sends what the stream of `lastEventId` got after it; an unknown or evicted id resumes nothing. */
  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.#events.find((event) => event.id === lastEventId);
    if (!last) return '';
    for (const event of this.#events.filter((e) => e.streamId === last.streamId && e.seq > last.seq)) {
      await send(event.id, event.message);
    }
    return last.streamId;
  }

  get size(): { events: number; bytes: number } {
    return { events: this.#events.length, bytes: this.#bytes };
  }
}

/**
 * One byte budget per user over the event stores of all their sessions: when an event takes a
 * user past it, the oldest events of that user's sessions (whichever sessions hold them) are
 * dropped until the user is within it again. A dropped event can no longer be resumed, as if
 * its session's own bound had dropped it. Per process, as sessions are.
 */
export class UserEventBudget {
  readonly #users = new Map<string, { bytes: number; stores: Set<SessionEventStore> }>();
  #order = 0;

  constructor(
    readonly maxBytesPerUser = DEFAULT_EVENT_BYTES_PER_USER,
    private readonly perSession: EventStoreLimits = DEFAULT_EVENT_STORE_LIMITS,
  ) {}

  /** A new session's store, counted against `userId`'s budget until it is closed. */
  storeFor(userId: string): SessionEventStore {
    const user = this.#users.get(userId) ?? { bytes: 0, stores: new Set<SessionEventStore>() };
    this.#users.set(userId, user);
    const share: BudgetShare = {
      next: () => ++this.#order,
      stored: (storing, bytes) => {
        user.bytes += bytes;
        while (user.bytes > this.maxBytesPerUser) if (!this.#dropOldest(user.stores, storing)) break;
      },
      dropped: (bytes) => {
        user.bytes -= bytes;
      },
      closed: (closing) => {
        user.stores.delete(closing);
        if (user.stores.size === 0 && this.#users.get(userId) === user) this.#users.delete(userId);
      },
    };
    const store = new SessionEventStore(this.perSession, share);
    user.stores.add(store);
    return store;
  }

  /** Bytes held for `userId` now. */
  bytesOf(userId: string): number {
    return this.#users.get(userId)?.bytes ?? 0;
  }

  /** Drops the oldest event among `stores`; false when none may be dropped. */
  #dropOldest(stores: ReadonlySet<SessionEventStore>, storing: SessionEventStore): boolean {
    let oldest: SessionEventStore | undefined;
    let oldestOrder = Infinity;
    for (const store of stores) {
      const order = store.oldestOrder(store === storing);
      if (order !== undefined && order < oldestOrder) [oldest, oldestOrder] = [store, order];
    }
    oldest?.dropOldest();
    return oldest !== undefined;
  }
}
