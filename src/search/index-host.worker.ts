import { serveRequests } from '../threads/serve-requests.js';
import { IndexHost, type IndexRequest } from './index-host.js';

/** The worker thread that owns every organization's search index (see index-channel.ts). */
const host = new IndexHost();
serveRequests((request: IndexRequest) => host.handle(request));
