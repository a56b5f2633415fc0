import type { ArtifactMeta, CatalogView, FolderRecord } from '../store/types.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { Crumb, FolderTreeNode, Located, TreeNode, TreeOpening } from './types.js';
import { listItemView } from './views.js';

/**
 * The readable product tree and the pages in their folders, in creation order. Walked from the
 * root through the catalog's parent index, so an unreadable branch is never visited. Only the
 * nodes `opening` names hold their children: around one artifact the cost is that of its path,
 * as a page beside each artifact needs; by levels it is that of the nodes shown, so the home
 * page of a 100,000-artifact organization does not walk (and send) every artifact.
 */
export async function readableTree(
  deps: DomainDeps,
  scope: Scope,
  opening: TreeOpening,
): Promise<{ product: TreeNode; pages: FolderTreeNode }> {
  const product = await scope.product();
  const view = await deps.store.view(scope.orgId);
  const readable = <T extends { workspaceId: string }>(items: readonly T[]) =>
    items.filter((i) => scope.canRead(i.workspaceId));
  const childArtifacts = (meta: ArtifactMeta) => readable(view.children(meta.id)).filter((m) => m.type !== 'page');
  const isOpen =
    'around' in opening
      ? openPath(view, opening.around.toLowerCase(), product.id)
      : openLevels(product, childArtifacts, opening.upTo);
  const node = (meta: ArtifactMeta): TreeNode => {
    const open = isOpen(meta.id);
    return {
      id: meta.id,
      type: meta.type,
      title: meta.title,
      ...(meta.requirementType ? { requirementType: meta.requirementType } : {}),
      children: open ? childArtifacts(meta).map(node) : [],
      ...(!open && view.children(meta.id).some((c) => c.type !== 'page' && scope.canRead(c.workspaceId))
        ? { closed: true }
        : {}),
    };
  };
  const folderNode = (folder: FolderRecord | null): FolderTreeNode => {
    const open = 'upTo' in opening || isOpen(folder?.id ?? null);
    return {
      id: folder?.id ?? null,
      name: folder?.name ?? ROOT_FOLDER_NAME,
      pages: open
        ? readable(view.children(folder?.id ?? null, 'page')).map((p) => listItemView(deps.baseUrl, scope.orgId, p))
        : [],
      folders: open ? readable(view.subfolders(folder?.id ?? null)).map(folderNode) : [],
    };
  };
  return { product: node(product), pages: folderNode(null) };
}

/**
 * The product (its children are what a home page lists, however many) and the levels below it,
 * each opened whole while the nodes shown stay within `upTo`: a small organization shows whole,
 * a large one down to the level that would pass it. A level's children are counted only as far
 * as `upTo`.
 */
function openLevels(
  product: ArtifactMeta,
  childArtifacts: (meta: ArtifactMeta) => ArtifactMeta[],
  upTo: number,
): (id: string | null) => boolean {
  const open = new Set<string | null>([product.id]);
  let level = childArtifacts(product);
  let shown = 1 + level.length;
  while (level.length > 0) {
    const next: ArtifactMeta[] = [];
    for (const meta of level) {
      // Not spread into push: a node's children can pass the number of arguments a call takes.
      for (const child of childArtifacts(meta)) next.push(child);
      if (shown + next.length > upTo) return (id) => open.has(id);
    }
    for (const meta of level) open.add(meta.id);
    shown += next.length;
    level = next;
  }
  return (id) => open.has(id);
}

/** The artifact, its ancestors (or its folders), the product and the root folder. */
function openPath(view: CatalogView, id: string, productId: string): (id: string | null) => boolean {
  const open = new Set<string | null>([productId, null]);
  const meta = view.meta(id);
  if (meta) open.add(meta.id);
  const step = (at: string) => view.meta(at)?.parentId ?? view.folder(at)?.parentId ?? null;
  for (let parent = meta?.parentId ?? null; parent !== null && !open.has(parent); parent = step(parent))
    open.add(parent);
  return (candidate) => open.has(candidate);
}

const ROOT_FOLDER_NAME = 'Pages';

/**
 * Where an artifact sits in the readable tree, found by walking up its parents: the same answer
 * as searching `readableTree` for it (every ancestor must be readable), at the cost of its depth.
 */
export async function locateArtifact(deps: DomainDeps, scope: Scope, id: string): Promise<Located | undefined> {
  const product = await scope.product();
  return placeIn(await deps.store.view(scope.orgId), scope, product.id, id);
}

/** As locateArtifact, in a catalog the caller holds (one without the product places nothing under it). */
export function placeIn(
  view: CatalogView,
  scope: Scope,
  productId: string | undefined,
  id: string,
): Located | undefined {
  const meta = view.meta(id.toLowerCase());
  if (!meta || !scope.canRead(meta.workspaceId)) return undefined;
  const crumbs =
    meta.type === 'page'
      ? folderCrumbs(view, scope, meta.parentId)
      : productId === undefined
        ? undefined
        : productCrumbs(view, scope, meta, productId);
  return crumbs && { type: meta.type, crumbs };
}

function productCrumbs(view: CatalogView, scope: Scope, meta: ArtifactMeta, productId: string): Crumb[] | undefined {
  if (meta.id === productId) return [];
  const crumbs: Crumb[] = [];
  const seen = new Set([meta.id]);
  for (let parentId = meta.parentId; parentId !== null;) {
    const parent = view.meta(parentId);
    if (!parent || parent.type === 'page' || seen.has(parent.id) || !scope.canRead(parent.workspaceId))
      return undefined;
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
  for (let id = folderId; id !== null;) {
    const folder = view.folder(id);
    if (!folder || seen.has(id) || !scope.canRead(folder.workspaceId)) return undefined;
    seen.add(id);
    crumbs.unshift({ label: folder.name });
    id = folder.parentId;
  }
  return [{ label: ROOT_FOLDER_NAME }, ...crumbs];
}
