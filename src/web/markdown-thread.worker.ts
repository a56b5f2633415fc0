import { buffersOf, packText, unpackText } from '../threads/packed-text.js';
import { serveRequests } from '../threads/serve-requests.js';
import { PartRenderer } from './part-renderer.js';
import type { RenderReply, RenderRequest } from './markdown-thread.js';

/** The worker thread that renders long documents (see markdown-thread.ts), keeping the parts it rendered. */
const renderer = new PartRenderer();

serveRequests(
  async (request: RenderRequest): Promise<RenderReply> => {
    try {
      return { ok: true, parts: renderer.render(unpackText(request.markdown)).map(packText) };
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    }
  },
  (reply) => (reply.ok ? buffersOf(...reply.parts) : []),
);
