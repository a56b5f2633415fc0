import { artifactType } from '../artifacts/index.js';
import { InvalidInputError } from '../errors.js';
import type { FolderRecord } from '../store/types.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { MoveTarget } from './types.js';

/** A folder's name with the names of the folders it is in: "Suppliers / Contracts". */
function folderLabel(folders: ReadonlyMap<string, FolderRecord>, folder: FolderRecord): string {
  const names = [folder.name];
  for (
    let parent = folder.parentId ? folders.get(folder.parentId) : undefined;
    parent;
    parent = parent.parentId ? folders.get(parent.parentId) : undefined
  ) {
    names.unshift(parent.name);
  }
  return names.join(' / ');
}

/** Folders the actor may put things into, labelled by their path. */
async function writableFolders(
  deps: DomainDeps,
  scope: Scope,
): Promise<{ all: Map<string, FolderRecord>; writable: FolderRecord[] }> {
  const all = new Map((await deps.store.folders(scope.orgId)).map((f) => [f.id, f]));
  return {
    all,
    writable: [...all.values()].filter((f) => scope.canRead(f.workspaceId) && scope.canWrite(f.workspaceId)),
  };
}

/** Where an artifact may move: parents of the allowed type the actor may write under, its current one left out. */
export async function artifactMoveTargets(deps: DomainDeps, scope: Scope, id: string): Promise<MoveTarget[]> {
  const meta = await scope.writable(id);
  const def = artifactType(meta.type);
  if (def.parent === null) throw new InvalidInputError(`the ${def.name.toLowerCase()} cannot be moved`);
  if (def.parent === 'folder') {
    const { all, writable } = await writableFolders(deps, scope);
    const root = scope.canWrite(await scope.defaultWorkspaceId()) ? [{ id: null, label: 'Top level (no folder)' }] : [];
    return [...root, ...writable.map((f) => ({ id: f.id, label: folderLabel(all, f) }))].filter(
      (t) => t.id !== meta.parentId,
    );
  }
  const readable = await scope.readableWorkspaceIds();
  const writable = new Set([...readable].filter((w) => scope.canWrite(w)));
  const view = await deps.store.view(scope.orgId);
  return view
    .ofType(def.parent, writable)
    .filter((p) => p.id !== meta.parentId)
    .map((p) => ({ id: p.id, label: p.title }));
}

/** Where a folder may move: the root and the writable folders outside it. */
export async function folderMoveTargets(deps: DomainDeps, scope: Scope, id: string): Promise<MoveTarget[]> {
  const folder = await scope.readableFolder(id);
  scope.assertWrite(folder.workspaceId);
  const { all, writable } = await writableFolders(deps, scope);
  const view = await deps.store.view(scope.orgId);
  const subtree = [folder];
  for (let i = 0; i < subtree.length; i++) subtree.push(...view.subfolders(subtree[i]!.id));
  const inside = new Set(subtree.map((f) => f.id));
  const root = folder.parentId === null ? [] : [{ id: null, label: 'Top level' }];
  return [
    ...root,
    ...writable
      .filter((f) => !inside.has(f.id) && f.id !== folder.parentId)
      .map((f) => ({ id: f.id, label: folderLabel(all, f) })),
  ];
}
