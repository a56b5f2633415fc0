import { artifactType } from '../artifacts/index.js';
import { ExplainedNotFoundError, InvalidInputError, NotFoundError } from '../errors.js';
import { announceChanges } from './announce.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { ArtifactRef, FolderChangeView, MoveView } from './types.js';

const refOf = (meta: { id: string; type: ArtifactRef['type']; title: string }): ArtifactRef => ({
  id: meta.id,
  type: meta.type,
  title: meta.title,
});

/**
 * Gives an artifact another parent of the type it may have (`to` null: a page to the root), as
 * one commit; its subtree takes the new parent's workspace. The actor needs editor rights on
 * both sides; a parent they cannot read is "not found", as if it did not exist.
 */
export async function moveArtifact(deps: DomainDeps, scope: Scope, id: string, to: string | null): Promise<MoveView> {
  const meta = await scope.writable(id);
  const def = artifactType(meta.type);
  if (def.parent === null) throw new InvalidInputError(`the ${def.name.toLowerCase()} cannot be moved`);
  const view = await deps.store.view(scope.orgId);
  const subtree = [meta];
  for (let i = 0; i < subtree.length; i++) subtree.push(...view.children(subtree[i]!.id));
  for (const m of subtree) scope.assertWrite(m.workspaceId);
  let workspaceId: string;
  if (def.parent === 'folder') {
    workspaceId =
      to === null
        ? await scope.defaultWorkspaceId()
        : (await namedTarget(scope.readableFolder(to), to, 'folder')).workspaceId;
  } else {
    if (to === null)
      throw new InvalidInputError(
        `a ${def.name.toLowerCase()} moves under a ${artifactType(def.parent).name.toLowerCase()}: name one`,
      );
    const parent = await namedTarget(scope.readable(to), to, artifactType(def.parent).name.toLowerCase());
    if (parent.type !== def.parent) {
      throw new InvalidInputError(
        `a ${def.name.toLowerCase()} moves under a ${artifactType(def.parent).name.toLowerCase()}, not a ${artifactType(parent.type).name.toLowerCase()}`,
      );
    }
    workspaceId = parent.workspaceId;
  }
  scope.assertWrite(workspaceId);
  const results = await deps.store.move(
    scope.orgId,
    meta.id,
    { parentId: to?.toLowerCase() ?? null, workspaceId },
    scope.changeContext,
  );
  await announceChanges(deps, scope, 'move', results);
  return {
    commit: results[0]!.commit,
    artifact: refOf(results[0]!.artifact),
    descendants: subtree.slice(1).map(refOf),
    parentId: results[0]!.artifact.parentId,
  };
}

/**
 * The place a move names, or a "not found" that says it was the place (not the artifact moved)
 * that names nothing; a deleted parent says so itself.
 */
async function namedTarget<T>(found: Promise<T>, to: string, what: string): Promise<T> {
  try {
    return await found;
  } catch (error) {
    if (error instanceof NotFoundError && !(error instanceof ExplainedNotFoundError)) {
      const explanation = `the new parent ${to.slice(0, 60)} names no ${what} you can read`;
      throw new ExplainedNotFoundError(explanation, {}, what === 'folder' ? 'folder' : 'artifact');
    }
    throw error;
  }
}

/** A folder the actor may change, with the folders under it all changeable too. */
async function writableFolder(deps: DomainDeps, scope: Scope, id: string) {
  const folder = await scope.readableFolder(id);
  const view = await deps.store.view(scope.orgId);
  const all = [folder];
  for (let i = 0; i < all.length; i++) all.push(...view.subfolders(all[i]!.id));
  for (const f of all) scope.assertWrite(f.workspaceId);
  return folder;
}

/** Puts a folder into another (`to` null: the root) as one commit; never into itself or below. */
export async function moveFolder(
  deps: DomainDeps,
  scope: Scope,
  id: string,
  to: string | null,
): Promise<FolderChangeView> {
  const folder = await writableFolder(deps, scope, id);
  const target = to === null ? undefined : await scope.readableFolder(to);
  // At the root a folder keeps its workspace; in another folder it takes that folder's.
  const workspaceId = target?.workspaceId ?? folder.workspaceId;
  scope.assertWrite(workspaceId);
  const commit = await deps.store.moveFolder(
    scope.orgId,
    folder.id,
    { parentId: target?.id ?? null, workspaceId },
    scope.changeContext,
  );
  return { commit, id: folder.id, name: folder.name, parentFolderId: target?.id ?? null };
}

export async function renameFolder(
  deps: DomainDeps,
  scope: Scope,
  id: string,
  name: string,
): Promise<FolderChangeView> {
  const folder = await writableFolder(deps, scope, id);
  const commit = await deps.store.renameFolder(scope.orgId, folder.id, name, scope.changeContext);
  return { commit, id: folder.id, name: name.trim(), parentFolderId: folder.parentId };
}

export async function deleteFolder(deps: DomainDeps, scope: Scope, id: string): Promise<FolderChangeView> {
  const folder = await writableFolder(deps, scope, id);
  const commit = await deps.store.deleteFolder(scope.orgId, folder.id, scope.changeContext);
  return { commit, id: folder.id, name: folder.name, parentFolderId: folder.parentId };
}
