import type { ArtifactEventKind } from '../control/types.js';
import type { ChangeContext, CommitResult } from '../store/types.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import { artifactUrl } from './urls.js';

/**
 * Tells the organization's webhooks of a commit the actor just made (or pushed): the one call every verb
 * makes once its commit landed (create, edit, revert, restore; delete and move alike). It
 * resolves once the event is in the outbox; it never fails the change, which is already made.
 */
export async function announceChange(
  deps: DomainDeps,
  scope: Scope,
  kind: ArtifactEventKind,
  result: CommitResult,
  /** Who made the commit when it is not the actor (a pushed commit keeps its author). */
  by: ChangeContext = scope.changeContext,
): Promise<void> {
  const { artifact } = result;
  const { author, client } = by;
  await deps.changes?.committed({
    orgId: scope.orgId,
    kind,
    artifact: {
      id: artifact.id,
      type: artifact.type,
      title: artifact.title,
      url: artifactUrl(deps.baseUrl, scope.orgId, artifact.id),
      workspaceId: artifact.workspaceId,
    },
    commit: result.commit,
    author,
    client: client ?? null,
    at: artifact.updatedAt,
  });
}

/** One event per artifact a commit changed (a delete, restore or move carries its subtree along). */
export async function announceChanges(
  deps: DomainDeps,
  scope: Scope,
  kind: ArtifactEventKind,
  results: readonly CommitResult[],
): Promise<void> {
  for (const result of results) await announceChange(deps, scope, kind, result);
}
