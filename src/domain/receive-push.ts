import type { ReceivedPush } from '../store/types.js';
import { announceChange } from './announce.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { PushToReceive } from './types.js';

/** The client named in webhook events of pushed commits, whose messages carry no `Client` trailer. */
const PUSH_CLIENT = 'git';

/**
 * A `git push` to `main`, as a write like any other: the pushed commits are judged by the store
 * against `main` with the pusher's permissions (they may change only workspaces where they are
 * editors), and once git has moved `main`, each artifact a commit changed is announced to the
 * webhooks as the verb the catalog recorded, by the commit's author (the pusher may differ: the
 * audit log names both).
 */
export async function receivePush(deps: DomainDeps, scope: Scope, push: PushToReceive): Promise<ReceivedPush> {
  const workspaces = await deps.control.workspaces.list(scope.orgId);
  const received = await deps.pushes.receivePush(scope.orgId, {
    ...push,
    rules: { workspaceIds: new Set(workspaces.map((w) => w.id)), mayWrite: (id) => scope.canWrite(id) },
  });
  for (const { result, verb, author } of received.changes) {
    await announceChange(deps, scope, verb, result, { author, client: PUSH_CLIENT });
  }
  return received;
}
