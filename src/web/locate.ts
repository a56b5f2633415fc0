import type { ArtifactType } from '../artifacts/index.js';
import type { FolderTreeNode, TreeNode } from '../domain/types.js';

export interface Crumb {
  readonly label: string;
  /** Artifact id to link to; folders have none. */
  readonly id?: string;
}

export interface Located {
  readonly type: ArtifactType;
  /** From the product (or the pages root) down to, not including, the artifact. */
  readonly crumbs: readonly Crumb[];
}

/**
 * Where an artifact sits in the readable tree: its type and its ancestors. Undefined when the
 * actor cannot read it (or it does not exist); the domain then says "not found" on read.
 */
export function locate(tree: { product: TreeNode; pages: FolderTreeNode }, id: string): Located | undefined {
  const inProduct = (node: TreeNode, above: Crumb[]): Located | undefined => {
    if (node.id === id) return { type: node.type, crumbs: above };
    const here = [...above, { label: node.title, id: node.id }];
    for (const child of node.children) {
      const found = inProduct(child, here);
      if (found) return found;
    }
    return undefined;
  };
  const inFolder = (folder: FolderTreeNode, above: Crumb[]): Located | undefined => {
    const here = [...above, { label: folder.name }];
    if (folder.pages.some((p) => p.id === id)) return { type: 'page', crumbs: here };
    for (const child of folder.folders) {
      const found = inFolder(child, here);
      if (found) return found;
    }
    return undefined;
  };
  return inProduct(tree.product, []) ?? inFolder(tree.pages, []);
}
