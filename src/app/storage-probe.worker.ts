import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { serveRequests } from '../threads/serve-requests.js';
import type { StorageProbeReply, StorageProbeRequest } from './storage-probe.js';

/** A few blocks' worth, so that a full disk refuses it too (an empty file needs none). */
const PROBE = Buffer.alloc(4096);

/** The worker thread that writes /healthz's probe file (see storage-probe.ts). */
serveRequests(async ({ dir }: StorageProbeRequest): Promise<StorageProbeReply> => {
  const probe = path.join(dir, `.healthz-${randomBytes(6).toString('hex')}`);
  try {
    writeFileSync(probe, PROBE);
    return {};
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    return { failure: { message, ...(code ? { code } : {}) } };
  } finally {
    rmSync(probe, { force: true });
  }
});
