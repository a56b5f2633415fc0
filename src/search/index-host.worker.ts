import { serveRequests } from '../threads/serve-requests.js';
import { IndexHost } from './index-host.js';
import { fromWire, type WireIndexRequest } from './index-wire.js';

/** The worker thread that owns every organization's search index (see index-channel.ts). */
const host = new IndexHost();
serveRequests((request: WireIndexRequest) => host.handle(fromWire(request)));
