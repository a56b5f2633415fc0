import type { FolderTreeNode, TreeNode } from '../../domain/types.js';
import { html, type SafeHtml } from '../html.js';

const link = (orgId: string, id: string) => `/o/${orgId}/a/${id}`;

function contains(node: TreeNode, id: string): boolean {
  return node.id === id || node.children.some((c) => contains(c, id));
}

function folderContains(folder: FolderTreeNode, id: string): boolean {
  return folder.pages.some((p) => p.id === id) || folder.folders.some((f) => folderContains(f, id));
}

function item(orgId: string, node: { id: string; title: string }, currentId: string): SafeHtml {
  const current = node.id === currentId;
  return html`<a href="${link(orgId, node.id)}"${current ? html` aria-current="page"` : ''}>${node.title}</a>`;
}

/**
 * A node with children: its link, then a disclosure holding only the toggle and the children.
 * The link stays outside the `<summary>`: a link inside a button is neither one nor the other.
 */
function branch(link: SafeHtml, label: string, open: boolean, inside: SafeHtml): SafeHtml {
  return html`<li class="branch">${link}<details${open ? html` open` : ''}><summary><span class="visually-hidden">What ${label} holds</span></summary>
<ul>${inside}</ul></details></li>`;
}

function productBranch(orgId: string, node: TreeNode, currentId: string): SafeHtml {
  if (node.closed) {
    return branch(
      item(orgId, node, currentId),
      node.title,
      false,
      html`<li class="leaf"><a href="${link(orgId, node.id)}">Open ${node.title} to see its children</a></li>`,
    );
  }
  if (node.children.length === 0) return html`<li class="leaf">${item(orgId, node, currentId)}</li>`;
  return branch(
    item(orgId, node, currentId),
    node.title,
    contains(node, currentId),
    html`${node.children.map((c) => productBranch(orgId, c, currentId))}`,
  );
}

function folderBranch(orgId: string, folder: FolderTreeNode, currentId: string): SafeHtml {
  const name = html`<span class="folder-name">${folder.name}</span>`;
  if (folder.pages.length === 0 && folder.folders.length === 0) return html`<li class="leaf">${name}</li>`;
  const inside = html`${folder.folders.map((f) => folderBranch(orgId, f, currentId))}${folder.pages.map((p) => html`<li class="leaf">${item(orgId, p, currentId)}</li>`)}`;
  return branch(name, folder.name, folderContains(folder, currentId), inside);
}

/** The readable tree beside an artifact on wide screens, open down to the artifact shown (other branches closed). */
export function sideTree(
  orgId: string,
  tree: { product: TreeNode; pages: FolderTreeNode },
  currentId: string,
): SafeHtml {
  const { product, pages } = tree;
  const hasPages = pages.pages.length > 0 || pages.folders.length > 0;
  return html`<aside class="side-tree" aria-label="All artifacts">
<details open class="side-tree-box"><summary class="side-tree-title">Product tree</summary>
<ul class="nav-tree">${productBranch(orgId, product, currentId)}</ul>
${
  hasPages
    ? html`<p class="side-tree-heading">Pages</p><ul class="nav-tree">${pages.folders.map((f) => folderBranch(orgId, f, currentId))}${pages.pages.map((p) => html`<li class="leaf">${item(orgId, p, currentId)}</li>`)}</ul>`
    : ''
}
</details></aside>`;
}
