import { commitChannel, type CommitChannel, type SqlDatabase } from '../control/index.js';
import { NotFoundError } from '../errors.js';
import type { GitStore } from '../store/index.js';

/** Commits remembered as announced, so that one heard from another replica is not announced again. */
const REMEMBERED_COMMITS = 1_000;
/**
 * How often every open organization's `main` is read for commits nobody announced (native Git
 * on the shared storage). It reads the ref itself, never trusting file times a network file
 * system may cache; a commit found this way is then announced to the other replicas.
 */
const FOLLOW_UNANNOUNCED_MS = 2_000;

export interface Replication {
  /** False while commits of other replicas may go unheard. */
  listening(): boolean;
  close(): Promise<void>;
}

/**
 * Keeps this replica's store (and so its search index, which follows the store) in step with
 * the others: each commit is announced on the PostgreSQL channel, and on a notice the store
 * catches up from `main` and emits what it found to its listeners.
 */
export async function replicate(deps: {
  databaseUrl: string;
  /** The control plane's database, on whose pool commits are announced. */
  db: SqlDatabase;
  store: GitStore;
  onError: (error: Error) => void;
}): Promise<Replication> {
  const { store, onError } = deps;
  const known = new Set<string>();
  const remember = (commit: string) => {
    known.add(commit);
    if (known.size > REMEMBERED_COMMITS) known.delete(known.values().next().value!);
  };
  // Only organizations this replica holds open are followed: the others read `main` when they
  // open. A notice for one not held costs a lookup (with organization affinity at the load
  // balancer, most notices are for organizations other replicas hold).
  const catchUp = (orgId: string) =>
    store.refresh(orgId).catch(
      // An organization without a repository yet has nothing to follow.
      (error: Error) => (error instanceof NotFoundError ? undefined : onError(error)),
    );
  const channel: CommitChannel = await commitChannel({
    databaseUrl: deps.databaseUrl,
    publishOn: deps.db,
    onNotice: ({ orgId, commit }) => {
      remember(commit);
      if (store.isOpen(orgId)) void catchUp(orgId);
    },
    // Notices sent while we were not listening are lost: look at every organization held once.
    resync: () => {
      void Promise.all(store.openOrganizations().map(catchUp));
    },
    onError,
  });
  const sweep = setInterval(() => {
    for (const orgId of store.openOrganizations()) void catchUp(orgId);
  }, FOLLOW_UNANNOUNCED_MS);
  sweep.unref();
  const unsubscribe = store.onCommit((orgId, result) => {
    if (known.has(result.commit)) return;
    remember(result.commit);
    channel.publish({ orgId, commit: result.commit }).catch(onError);
  });
  return {
    listening: () => channel.listening(),
    async close() {
      clearInterval(sweep);
      unsubscribe();
      await channel.close();
    },
  };
}
