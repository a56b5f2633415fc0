import { InvalidInputError } from '../errors.js';
import { linksOf } from './links.js';
import { announceChanges } from './announce.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { ArtifactRef, DeletedView, DeletePreview, RemovalView } from './types.js';
import { artifactUrl } from './urls.js';

const refOf = (meta: { id: string; type: ArtifactRef['type']; title: string }): ArtifactRef => ({
  id: meta.id,
  type: meta.type,
  title: meta.title,
});

/** The artifact and its descendants, parents first, each checked writable: a delete takes them all. */
async function writableSubtree(deps: DomainDeps, scope: Scope, id: string) {
  const top = await scope.writable(id);
  if (top.type === 'product') throw new InvalidInputError('the product cannot be deleted');
  const view = await deps.store.view(scope.orgId);
  const subtree = [top];
  for (let i = 0; i < subtree.length; i++) subtree.push(...view.children(subtree[i]!.id));
  for (const meta of subtree) scope.assertWrite(meta.workspaceId);
  return subtree;
}

/** What a delete of `id` would take with it: shown before the person confirms. */
export async function deletePreview(deps: DomainDeps, scope: Scope, id: string): Promise<DeletePreview> {
  const subtree = await writableSubtree(deps, scope, id);
  const inside = new Set(subtree.map((m) => m.id));
  const linkedFrom = new Map<string, ArtifactRef>();
  for (const meta of subtree) {
    for (const source of (await linksOf(deps, scope, meta.id)).referencedBy)
      if (!inside.has(source.id)) linkedFrom.set(source.id, source);
  }
  const [top, ...descendants] = subtree;
  return { artifact: refOf(top!), descendants: descendants.map(refOf), linkedFrom: [...linkedFrom.values()] };
}

/**
 * Deletes an artifact (with `recursive`, and its descendants) as one commit. The one verb every
 * transport calls: what it returns is the commit and what it removed.
 */
export async function deleteArtifact(
  deps: DomainDeps,
  scope: Scope,
  id: string,
  options: { recursive: boolean },
): Promise<RemovalView> {
  const subtree = await writableSubtree(deps, scope, id);
  const results = await deps.store.delete(scope.orgId, subtree[0]!.id, options, scope.changeContext);
  await announceChanges(deps, scope, 'delete', results);
  return {
    commit: results[0]!.commit,
    artifact: refOf(results[0]!.artifact),
    descendants: results.slice(1).map((r) => refOf(r.artifact)),
  };
}

/** Deleted artifacts of the workspaces the actor can read, newest first. */
export async function listDeleted(deps: DomainDeps, scope: Scope): Promise<DeletedView[]> {
  const readable = await scope.readableWorkspaceIds();
  return (await deps.store.deleted(scope.orgId))
    .filter((d) => d.named && readable.has(d.workspaceId))
    .map((d) => ({ ...d, canRestore: scope.canWrite(d.workspaceId) }));
}

/**
 * Brings a deleted artifact back with its id, content and the descendants deleted with it, as
 * one commit. Unknown and unreadable are the same "not found"; a viewer's restore is refused.
 */
export async function restoreDeleted(
  deps: DomainDeps,
  scope: Scope,
  id: string,
): Promise<RemovalView & { url: string }> {
  const readable = await scope.readableWorkspaceIds();
  // A descendant deleted with its parent is found too: the store says to restore the parent first.
  const deleted = (await deps.store.deleted(scope.orgId)).find(
    (d) => d.id === id.toLowerCase() && readable.has(d.workspaceId),
  );
  if (!deleted) {
    // Readable and there: say so, rather than "not found" for an artifact the actor can see.
    const present = await scope.readable(id);
    throw new InvalidInputError(`${present.id} is not deleted: nothing to restore`);
  }
  scope.assertWrite(deleted.workspaceId);
  const rootWorkspaceId = await scope.defaultWorkspaceId();
  const results = await deps.store.restoreDeleted(scope.orgId, deleted.id, { rootWorkspaceId }, scope.changeContext);
  await announceChanges(deps, scope, 'restore', results);
  return {
    commit: results[0]!.commit,
    artifact: refOf(results[0]!.artifact),
    descendants: results.slice(1).map((r) => refOf(r.artifact)),
    url: artifactUrl(deps.baseUrl, scope.orgId, deleted.id),
  };
}
