import { ThreadClient } from '../threads/thread-client.js';
import { IndexHost, type IndexReply, type IndexRequest } from './index-host.js';
import { toWire, type WireIndexRequest } from './index-wire.js';

/** How requests reach the indexes. Requests are handled in the order they are sent. */
export interface IndexChannel {
  send(request: IndexRequest): Promise<IndexReply>;
  /** Gets ready for the first request now (starts the worker), so that request does not wait for it. */
  prepare(): void;
  close(): Promise<void>;
}

/** The indexes in this thread, each request in turn. */
export function inThreadChannel(): IndexChannel {
  const host = new IndexHost();
  return { send: (request) => host.handle(request), prepare: () => undefined, close: () => Promise.resolve() };
}

/**
 * The indexes in a worker thread, so building and updating them (seconds for a large
 * organization, tens of milliseconds for a 1 MiB document) never holds the event loop. The
 * worker is started on first use and again after a crash; `onLost` is then told that its
 * indexes are gone, and the requests it had not answered get a failed reply.
 */
export class WorkerChannel extends ThreadClient<WireIndexRequest, IndexReply> implements IndexChannel {
  constructor(onLost: () => void) {
    super({ callerUrl: import.meta.url, worker: 'index-host.worker', name: 'the search index worker', onLost });
  }

  override send(request: IndexRequest): Promise<IndexReply> {
    const { wire, transfer } = toWire(request);
    return super
      .send(wire, transfer)
      .catch((error: Error) => ({ ok: false, failure: 'failed', message: error.message }));
  }
}
