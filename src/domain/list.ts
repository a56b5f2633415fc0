import { ARTIFACT_TYPES, artifactType, type ArtifactType } from '../artifacts/index.js';
import { InvalidInputError } from '../errors.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { FolderView, ListItemView } from './types.js';
import { listItemView } from './views.js';

export async function listChildren(
  deps: DomainDeps,
  scope: Scope,
  childType: ArtifactType,
  parentId: string,
): Promise<ListItemView[]> {
  const parentType = artifactType(childType).parent;
  if (!parentType || parentType === 'folder') {
    throw new InvalidInputError(`${childType} artifacts are not listed by parent artifact`);
  }
  await scope.readable(parentId, parentType);
  const children = await deps.store.children(scope.orgId, parentId, childType);
  return children.filter((c) => scope.canRead(c.workspaceId)).map((c) => listItemView(deps.baseUrl, scope.orgId, c));
}

/** Every artifact the actor can read: type by type in the table's order, each in creation order. */
export async function listReadable(deps: DomainDeps, scope: Scope): Promise<ListItemView[]> {
  const view = await deps.store.view(scope.orgId);
  const workspaces = await scope.readableWorkspaceIds();
  return ARTIFACT_TYPES.flatMap((type) => view.ofType(type, workspaces)).map((meta) =>
    listItemView(deps.baseUrl, scope.orgId, meta),
  );
}

/** All readable pages, or those directly in one folder. */
export async function listPages(deps: DomainDeps, scope: Scope, folderId?: string): Promise<ListItemView[]> {
  if (folderId !== undefined) await scope.readableFolder(folderId);
  const view = await deps.store.view(scope.orgId);
  const pages =
    folderId === undefined
      ? view.ofType('page', await scope.readableWorkspaceIds())
      : view.children(folderId, 'page').filter((m) => scope.canRead(m.workspaceId));
  return pages.map((p) => listItemView(deps.baseUrl, scope.orgId, p));
}

/** All readable folders, or the direct subfolders of one, with their direct readable page counts. */
export async function listFolders(deps: DomainDeps, scope: Scope, parentFolderId?: string): Promise<FolderView[]> {
  if (parentFolderId !== undefined) await scope.readableFolder(parentFolderId);
  const view = await deps.store.view(scope.orgId);
  const folders =
    parentFolderId === undefined ? await deps.store.folders(scope.orgId) : view.subfolders(parentFolderId);
  const pageCount = (folderId: string) =>
    view.children(folderId, 'page').filter((m) => scope.canRead(m.workspaceId)).length;
  return folders
    .filter((f) => scope.canRead(f.workspaceId))
    .map((f) => ({ id: f.id, name: f.name, parentFolderId: f.parentId, pageCount: pageCount(f.id) }));
}
