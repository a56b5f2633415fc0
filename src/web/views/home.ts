import type { Organization } from '../../control/types.js';
import type { FolderTreeNode, TreeNode } from '../../domain/types.js';
import { html, type SafeHtml } from '../html.js';
import { requirementBadge, typeBadge } from './format.js';

const link = (orgId: string, id: string) => `/o/${orgId}/a/${id}`;

function treeList(orgId: string, nodes: readonly TreeNode[]): SafeHtml {
  if (nodes.length === 0) return html``;
  return html`<ul class="tree">${nodes.map(
    (n) =>
      html`<li class="node node-${n.type}"><a href="${link(orgId, n.id)}">${typeBadge(n.type)} <span class="title">${n.title}</span></a>${requirementBadge(n.requirementType)}${
        n.closed
          ? html`<a class="more" href="${link(orgId, n.id)}" aria-label="What ${n.title} holds">more inside</a>`
          : treeList(orgId, n.children)
      }</li>`,
  )}</ul>`;
}

function folderList(orgId: string, folder: FolderTreeNode, root: boolean): SafeHtml {
  const pages = folder.pages.map(
    (p) =>
      html`<li class="node node-page"><a href="${link(orgId, p.id)}">${typeBadge('page')} <span class="title">${p.title}</span></a></li>`,
  );
  const folders = folder.folders.map(
    (f) =>
      html`<li class="folder"><a class="folder-name" href="/o/${orgId}/folders/${f.id}"><span class="folder-icon" aria-hidden="true"></span>${f.name}</a>${folderList(orgId, f, false)}</li>`,
  );
  if (pages.length === 0 && folders.length === 0)
    return root ? html`<p class="empty">No pages yet.</p>` : html`<p class="empty small">Empty folder</p>`;
  return html`<ul class="tree">${folders}${pages}</ul>`;
}

function section(heading: string, id: string, body: SafeHtml, count: number, action?: SafeHtml): SafeHtml {
  return html`<section class="panel" aria-labelledby="${id}"><div class="child-head"><h2 id="${id}">${heading} <span class="count">${count}</span></h2>${action}</div>${body}</section>`;
}

export function homeView(
  org: Organization,
  tree: { product: TreeNode; pages: FolderTreeNode },
  canCreate: boolean,
): SafeHtml {
  const { product } = tree;
  const ofType = (type: TreeNode['type']) => product.children.filter((c) => c.type === type);
  const capabilities = ofType('capability');
  const userTypes = ofType('user_type');
  const entities = ofType('core_entity');
  const pageCount = (f: FolderTreeNode): number => f.pages.length + f.folders.reduce((n, c) => n + pageCount(c), 0);
  return html`<div class="page-head">
  <p class="eyebrow">${org.name}</p>
  <h1><a href="${link(org.id, product.id)}">${product.title}</a></h1>
  <p class="lede">The product tree and pages you can read. Every change is kept in Git and can be reviewed and rolled back.</p>
</div>
<div class="home-grid">
  <div class="main-col">
    ${section('Capabilities, features and requirements', 'h-capabilities', capabilities.length ? treeList(org.id, capabilities) : html`<p class="empty">No capabilities yet.</p>`, capabilities.length, canCreate ? html`<a class="button small secondary" href="${link(org.id, product.id)}/new?type=capability">+ New capability</a>` : undefined)}
  </div>
  <div class="side-col">
    ${section('User Types', 'h-user-types', userTypes.length ? treeList(org.id, userTypes) : html`<p class="empty">None yet.</p>`, userTypes.length)}
    ${section('Core Entities', 'h-core-entities', entities.length ? treeList(org.id, entities) : html`<p class="empty">None yet.</p>`, entities.length)}
    ${section('Pages', 'h-pages', folderList(org.id, tree.pages, true), pageCount(tree.pages), canCreate ? html`<a class="button small secondary" href="/o/${org.id}/pages/new">+ New page or folder</a> <a class="button small secondary" href="/o/${org.id}/import">Import or export</a>` : undefined)}
  </div>
</div>`;
}

export function orgListView(orgs: readonly Organization[]): SafeHtml {
  return html`<div class="page-head"><h1>Your organizations</h1></div>
${
  orgs.length
    ? html`<ul class="cards">${orgs.map((o) => html`<li><a class="card" href="/o/${o.id}"><strong>${o.name}</strong><span class="mono small">${o.id}</span></a></li>`)}</ul>`
    : html`<p class="empty">You are not a member of any organization yet. Ask an owner to add you.</p>`
}`;
}
