import { buffersOf } from '../threads/packed-text.js';
import { serveRequests } from '../threads/serve-requests.js';
import { answerDiff, type DiffReply, type DiffRequest } from './diff-work.js';

/** The worker thread that diffs large texts (see diff-thread.ts). */
serveRequests(
  async (request: DiffRequest): Promise<DiffReply> => {
    try {
      return answerDiff(request);
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    }
  },
  (reply) =>
    'diff' in reply
      ? buffersOf(reply.diff)
      : 'text' in reply
        ? buffersOf(reply.text)
        : 'origins' in reply && reply.origins
          ? [reply.origins.buffer as ArrayBuffer]
          : [],
);
