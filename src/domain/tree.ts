import type { ArtifactMeta, FolderRecord } from '../store/types.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { FolderTreeNode, TreeNode } from './types.js';
import { listItemView } from './views.js';

/** The readable product tree and the pages in their folders, in creation order. */
export async function readableTree(
  deps: DomainDeps,
  scope: Scope,
): Promise<{ product: TreeNode; pages: FolderTreeNode }> {
  const product = await scope.product();
  const [catalog, folders] = await Promise.all([deps.store.catalog(scope.orgId), deps.store.folders(scope.orgId)]);
  const readable = catalog.filter((m) => scope.canRead(m.workspaceId));
  const childrenOf = groupBy(readable.filter((m) => m.type !== 'page'), (m) => m.parentId);
  const node = (meta: ArtifactMeta): TreeNode => ({
    id: meta.id,
    type: meta.type,
    title: meta.title,
    ...(meta.requirementType ? { requirementType: meta.requirementType } : {}),
    children: (childrenOf.get(meta.id) ?? []).map(node),
  });

  const pagesIn = groupBy(readable.filter((m) => m.type === 'page'), (m) => m.parentId);
  const foldersIn = groupBy(folders.filter((f) => scope.canRead(f.workspaceId)), (f) => f.parentId);
  const folderNode = (folder: FolderRecord | null): FolderTreeNode => ({
    id: folder?.id ?? null,
    name: folder?.name ?? 'Pages',
    pages: (pagesIn.get(folder?.id ?? null) ?? []).map((p) => listItemView(deps.baseUrl, scope.orgId, p)),
    folders: (foldersIn.get(folder?.id ?? null) ?? []).map(folderNode),
  });
  return { product: node(product), pages: folderNode(null) };
}

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
