import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface EventStoreLimits {
  /** Events kept per session; the oldest go first. */
  readonly maxEvents: number;
  /** Bytes of messages kept per session, as sizeOf counts them. */
  readonly maxBytes: number;
}

/** Enough to resume any call of a normal session; a read result is at most about 1 MiB. */
export const DEFAULT_EVENT_STORE_LIMITS: EventStoreLimits = Object.freeze({ maxEvents: 256, maxBytes: 4 * 1024 * 1024 });

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
}

/**
 * The events of one Streamable HTTP session, so that a client whose stream broke mid-call can
 * reconnect with `Last-Event-ID` and still get its result. One store per session, bounded in
 * count and bytes, and gone with the session: resuming after the session ended is not possible,
 * as the MCP specification allows. Ids are `<stream>.<sequence>`: ordered within a stream.
 */
export class SessionEventStore implements EventStore {
  readonly #limits: EventStoreLimits;
  readonly #events: StoredEvent[] = [];
  #seq = 0;
  #bytes = 0;

  constructor(limits: EventStoreLimits = DEFAULT_EVENT_STORE_LIMITS) {
    this.#limits = limits;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const seq = ++this.#seq;
    const id = `${streamId}.${seq}`;
    const bytes = sizeOf(message);
    this.#events.push({ id, streamId, seq, message, bytes });
    this.#bytes += bytes;
    while (this.#events.length > this.#limits.maxEvents || (this.#bytes > this.#limits.maxBytes && this.#events.length > 1)) {
      this.#bytes -= this.#events.shift()!.bytes;
    }
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.#events.find((event) => event.id === eventId)?.streamId;
  }

  /** Sends what the stream of `lastEventId` got after it; an unknown or evicted id resumes nothing. */
  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
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
