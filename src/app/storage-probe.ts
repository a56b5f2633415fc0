import path from 'node:path';
import { storageFailureOf } from '../errors.js';
import { ThreadClient } from '../threads/thread-client.js';

export interface StorageProbeRequest {
  readonly dir: string;
}
/** What writing the probe file failed with, if it did. */
export interface StorageProbeReply {
  readonly failure?: { readonly code?: string; readonly message: string };
}

/**
 * /healthz's write, in a thread of its own. Through the thread pool it took six requests per
 * check (open, write, close, two lstats, unlink), each of which can stall the event loop for
 * tens of milliseconds on a busy machine (glibc before 2.41 makes pthread_cond_signal wait for
 * pool threads woken earlier to run), and on a flooded disk it held a pool thread for hundreds
 * of milliseconds that git reads were waiting for. Checks run one at a time, in order.
 */
const probeThread = new ThreadClient<StorageProbeRequest, StorageProbeReply>({
  callerUrl: import.meta.url,
  worker: 'storage-probe.worker',
  name: 'the storage probe',
});

/**
 * Why the organizations' repositories cannot be written now, or undefined: a small file made
 * and removed where they live, as every commit must. Asked by /healthz, so that a replica whose
 * disk turned read-only or full leaves the load balancer's rotation instead of failing edits.
 */
export async function storageProblem(orgsDir: string): Promise<string | undefined> {
  const { failure } = await probeThread.send({ dir: path.resolve(orgsDir) });
  if (!failure) return undefined;
  const error = Object.assign(new Error(failure.message), failure.code ? { code: failure.code } : {});
  const storage = storageFailureOf(error);
  return storage ? storage.message.split(';')[0] : `the repositories cannot be written: ${failure.message}`;
}
