import { parentPort } from 'node:worker_threads';
import type { Batch, ReplyEnvelope, RequestEnvelope } from './thread-client.js';

/**
 * The worker's side of a ThreadClient: each request is handed to `handle` as it arrives (the
 * handler keeps whatever order it needs) and its reply posted back, the replies of one turn
 * together. `handle` answers failures as replies; a rejection is a bug and ends the worker,
 * which the client reports as lost.
 */
export function serveRequests<Request, Reply>(
  handle: (request: Request) => Promise<Reply>,
  /** The buffers a reply hands over to the caller rather than copies (see ThreadClient.send). */
  transfersOf: (reply: Reply) => readonly ArrayBuffer[] = () => [],
): void {
  const port = parentPort;
  if (!port) throw new Error('serveRequests runs in a worker thread');
  let outbox: ReplyEnvelope<Reply>[] = [];
  let transfers: ArrayBuffer[] = [];
  const flush = () => {
    const batch = outbox;
    const moved = transfers;
    outbox = [];
    transfers = [];
    port.postMessage(batch satisfies Batch<ReplyEnvelope<Reply>>, moved);
  };
  port.on('message', (batch: Batch<RequestEnvelope<Request>>) => {
    for (const { seq, request } of batch) {
      void handle(request).then((reply) => {
        if (outbox.length === 0) setImmediate(flush);
        outbox.push({ seq, reply });
        transfers.push(...transfersOf(reply));
      });
    }
  });
}
