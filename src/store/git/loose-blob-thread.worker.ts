import { serveRequests } from '../../threads/serve-requests.js';
import { readLooseBlob } from './loose-object.js';
import type { LooseBlobReply, LooseBlobRequest } from './loose-blob-thread.js';

/** The worker thread that reads loose blobs (see loose-blob-thread.ts). */
serveRequests(
  async ({ gitdir, oid }: LooseBlobRequest): Promise<LooseBlobReply> => ({
    bytes: readLooseBlob(gitdir, oid)?.buffer as ArrayBuffer | undefined,
  }),
  (reply) => (reply.bytes ? [reply.bytes] : []),
);
