import { commitChannel, type CommitChannel } from '../control/index.js';
import type { ControlPlane } from '../control/types.js';
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
  store: GitStore;
  control: ControlPlane;
  onError: (error: Error) => void;
}): Promise<Replication> {
  const { store, control, onError } = deps;
  const known = new Set<string>();
  const remember = (commit: string) => {
    known.add(commit);
    if (known.size > REMEMBERED_COMMITS) known.delete(known.values().next().value!);
  };
  const catchUp = (orgId: string) =>
    store.head(orgId).then(
      () => undefined,
      // An organization without a repository yet has nothing to follow.
      (error: Error) => (error instanceof NotFoundError ? undefined : onError(error)),
    );
  const channel: CommitChannel = await commitChannel({
    databaseUrl: deps.databaseUrl,
    onNotice: ({ orgId, commit }) => {
      remember(commit);
      void catchUp(orgId);
    },
    // Notices sent while we were not listening are lost: look at every organization once.
    resync: () => {
      void control.orgs.list().then((orgs) => Promise.all(orgs.map((org) => catchUp(org.id))), onError);
    },
    onError,
  });
  const sweep = setInterval(() => {
    for (const orgId of store.openOrganizations()) {
      store.refresh(orgId).catch((error: Error) => (error instanceof NotFoundError ? undefined : onError(error)));
    }
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
