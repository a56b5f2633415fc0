import type { ArtifactMeta, CatalogView, FolderRecord } from '../store/types.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { Crumb, FolderTreeNode, Located, TreeNode } from './types.js';
import { listItemView } from './views.js';

/**
 * The readable product tree and the pages in their folders, in creation order. Walked from the
 * root through the catalog's parent index, so an unreadable branch is never visited. With
 * `around`, only the branches leading to that artifact (and its own children) are opened: the
 * cost is that of its path, not of the organization, as a page beside each artifact needs.
 */
export async function readableTree(
  deps: DomainDeps,
  scope: Scope,
  around?: string,
): Promise<{ product: TreeNode; pages: FolderTreeNode }> {
  const product = await scope.product();
  const view = await deps.store.view(scope.orgId);
  const isOpen = around === undefined ? () => true : openPath(view, around.toLowerCase(), product.id);
  const readable = <T extends { workspaceId: string }>(items: readonly T[]) => items.filter((i) => scope.canRead(i.workspaceId));
  const childArtifacts = (meta: ArtifactMeta) => readable(view.children(meta.id)).filter((m) => m.type !== 'page');
  const node = (meta: ArtifactMeta): TreeNode => {
    const open = isOpen(meta.id);
    return {
      id: meta.id,
      type: meta.type,
      title: meta.title,
      ...(meta.requirementType ? { requirementType: meta.requirementType } : {}),
      children: open ? childArtifacts(meta).map(node) : [],
      ...(!open && view.children(meta.id).some((c) => c.type !== 'page' && scope.canRead(c.workspaceId)) ? { closed: true } : {}),
    };
  };
  const folderNode = (folder: FolderRecord | null): FolderTreeNode => {
    const open = isOpen(folder?.id ?? null);
    return {
      id: folder?.id ?? null,
      name: folder?.name ?? ROOT_FOLDER_NAME,
      pages: open ? readable(view.children(folder?.id ?? null, 'page')).map((p) => listItemView(deps.baseUrl, scope.orgId, p)) : [],
      folders: open ? readable(view.subfolders(folder?.id ?? null)).map(folderNode) : [],
    };
  };
  return { product: node(product), pages: folderNode(null) };
}

/** The artifact, its ancestors (or its folders), the product and the root folder. */
function openPath(view: CatalogView, id: string, productId: string): (id: string | null) => boolean {
  const open = new Set<string | null>([productId, null]);
  const meta = view.meta(id);
  if (meta) open.add(meta.id);
  const step = (at: string) => view.meta(at)?.parentId ?? view.folder(at)?.parentId ?? null;
  for (let parent = meta?.parentId ?? null; parent !== null && !open.has(parent); parent = step(parent)) open.add(parent);
  return (candidate) => open.has(candidate);
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
