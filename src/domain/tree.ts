import type { ArtifactMeta, CatalogView, FolderRecord } from '../store/types.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { Crumb, FolderTreeNode, Located, TreeNode } from './types.js';
import { listItemView } from './views.js';

/**
 * The readable product tree and the pages in their folders, in creation order. Walked from the
 * root through the catalog's parent index, so an unreadable branch is never visited.
 */
export async function readableTree(
  deps: DomainDeps,
  scope: Scope,
): Promise<{ product: TreeNode; pages: FolderTreeNode }> {
  const product = await scope.product();
  const view = await deps.store.view(scope.orgId);
  const readable = <T extends { workspaceId: string }>(items: readonly T[]) => items.filter((i) => scope.canRead(i.workspaceId));
  const node = (meta: ArtifactMeta): TreeNode => ({
    id: meta.id,
    type: meta.type,
    title: meta.title,
    ...(meta.requirementType ? { requirementType: meta.requirementType } : {}),
    children: readable(view.children(meta.id)).filter((m) => m.type !== 'page').map(node),
  });
  const folderNode = (folder: FolderRecord | null): FolderTreeNode => ({
    id: folder?.id ?? null,
    name: folder?.name ?? ROOT_FOLDER_NAME,
    pages: readable(view.children(folder?.id ?? null, 'page')).map((p) => listItemView(deps.baseUrl, scope.orgId, p)),
    folders: readable(view.subfolders(folder?.id ?? null)).map(folderNode),
  });
  return { product: node(product), pages: folderNode(null) };
}

const ROOT_FOLDER_NAME = 'Pages';

/**
 * Where an artifact sits in the readable tree, found by walking up its parents: the same answer
 * as searching `readableTree` for it (every ancestor must be readable), at the cost of its depth.
 */
export async function locateArtifact(deps: DomainDeps, scope: Scope, id: string): Promise<Located | undefined> {
  const product = await scope.product();
  const view = await deps.store.view(scope.orgId);
  const meta = view.meta(id.toLowerCase());
  if (!meta || !scope.canRead(meta.workspaceId)) return undefined;
  const crumbs = meta.type === 'page' ? folderCrumbs(view, scope, meta.parentId) : productCrumbs(view, scope, meta, product.id);
  return crumbs && { type: meta.type, crumbs };
}

function productCrumbs(view: CatalogView, scope: Scope, meta: ArtifactMeta, productId: string): Crumb[] | undefined {
  if (meta.id === productId) return [];
  const crumbs: Crumb[] = [];
  const seen = new Set([meta.id]);
  for (let parentId = meta.parentId; parentId !== null; ) {
    const parent = view.meta(parentId);
    if (!parent || parent.type === 'page' || seen.has(parent.id) || !scope.canRead(parent.workspaceId)) return undefined;
    seen.add(parent.id);
    crumbs.unshift({ label: parent.title, id: parent.id });
    if (parent.id === productId) return crumbs;
    parentId = parent.parentId;
  }
  return undefined;
}

function folderCrumbs(view: CatalogView, scope: Scope, folderId: string | null): Crumb[] | undefined {
  const crumbs: Crumb[] = [];
  const seen = new Set<string>();
  for (let id = folderId; id !== null; ) {
    const folder = view.folder(id);
    if (!folder || seen.has(id) || !scope.canRead(folder.workspaceId)) return undefined;
    seen.add(id);
    crumbs.unshift({ label: folder.name });
    id = folder.parentId;
  }
  return [{ label: ROOT_FOLDER_NAME }, ...crumbs];
}
