import { parentPort } from 'node:worker_threads';
import type { ReplyEnvelope, RequestEnvelope } from './thread-client.js';

/**
 * The worker's side of a ThreadClient: each request is handed to `handle` as it arrives (the
 * handler keeps whatever order it needs) and its reply posted back. `handle` answers failures
 * as replies; a rejection is a bug and ends the worker, which the client reports as lost.
 */
export function serveRequests<Request, Reply>(handle: (request: Request) => Promise<Reply>): void {
  const port = parentPort;
  if (!port) throw new Error('serveRequests runs in a worker thread');
  port.on('message', ({ seq, request }: RequestEnvelope<Request>) => {
    void handle(request).then((reply) => port.postMessage({ seq, reply } satisfies ReplyEnvelope<Reply>));
  });
}
