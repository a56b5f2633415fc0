import { parentPort } from 'node:worker_threads';
import { IndexHost } from './index-host.js';

/** The worker thread that owns every organization's search index (see index-channel.ts). */
const host = new IndexHost();
parentPort!.on('message', ({ seq, request }) => {
  void host.handle(request).then((reply) => parentPort!.postMessage({ seq, reply }));
});
