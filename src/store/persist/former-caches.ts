import { rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * What earlier versions cached inside the repository, in `<gitdir>/specbase/`: the saved state
 * (SQLite and its journal files, and the JSON file before it) and the search index. Replicas
 * share repositories, over NFS in production, where SQLite's locking cannot be trusted; caches
 * now live in each process's cache directory. `specbase/staging` (refs.ts) stays.
 */
const FORMER_CACHES = ['state.db', 'state.db-wal', 'state.db-shm', 'index.json', 'search'];

/** Removes the caches an earlier version left in the repository; a failure leaves them, unread. */
export async function removeFormerCaches(gitdir: string): Promise<void> {
  await Promise.all(
    FORMER_CACHES.map((name) =>
      rm(path.join(gitdir, 'specbase', name), { recursive: true, force: true }).catch(() => undefined),
    ),
  );
}
