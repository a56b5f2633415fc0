import { artifactType, childTypesOf } from '../../artifacts/index.js';
import type { ArtifactView, Crumb, FolderTreeNode, TreeNode } from '../../domain/types.js';
import type { HistoryEntry } from '../../store/types.js';
import { html, type SafeHtml } from '../html.js';
import { clientLabel, requirementBadge, typeBadge, when } from './format.js';
import { sideTree } from './side-tree.js';

export function breadcrumb(orgId: string, crumbs: readonly Crumb[], current?: { label: string; id: string }): SafeHtml {
  const items = [...crumbs, ...(current ? [current] : [])];
  return html`<nav class="breadcrumb" aria-label="Breadcrumb"><ol>${items.map(
    (c) =>
      html`<li>${c.id ? html`<a href="/o/${orgId}/a/${c.id}">${c.label}</a>` : html`<span>${c.label}</span>`}</li>`,
  )}</ol></nav>`;
}

/** The artifact's node in the readable product tree; pages are not in it. */
export function findNode(node: TreeNode, id: string): TreeNode | undefined {
  if (node.id === id) return node;
  for (const child of node.children) {
    const found = findNode(child, id);
    if (found) return found;
  }
  return undefined;
}

/** One group per kind of child the type may have (a product: capabilities, user types, core entities). */
function childrenSection(
  orgId: string,
  artifact: ArtifactView,
  children: readonly TreeNode[],
  canWrite: boolean,
): SafeHtml {
  const kinds = childTypesOf(artifact.type).filter((def) => def.type !== 'page');
  if (kinds.length === 0) return html``;
  return html`<section class="children" aria-label="Contents">${kinds.map((def) => {
    const ofKind = children.filter((c) => c.type === def.type);
    const id = `h-${def.type}`;
    return html`<div class="child-group">
  <div class="child-head"><h2 id="${id}">${def.pluralName} <span class="count">${ofKind.length}</span></h2>
  ${canWrite ? html`<a class="button small secondary" href="/o/${orgId}/a/${artifact.id}/new?type=${def.type}">+ New ${def.name.toLowerCase()}</a>` : ''}</div>
  ${
    ofKind.length
      ? html`<ul class="child-list" aria-labelledby="${id}">${ofKind.map(
          (c) =>
            html`<li><a href="/o/${orgId}/a/${c.id}">${c.title}</a>${requirementBadge(c.requirementType)}${c.children.length ? html`<span class="small muted"> · ${c.children.length} ${c.children.length === 1 ? artifactType(c.children[0]!.type).name.toLowerCase() : artifactType(c.children[0]!.type).pluralName.toLowerCase()}</span>` : ''}</li>`,
        )}</ul>`
      : html`<p class="empty small">No ${def.pluralName.toLowerCase()} yet.</p>`
  }
</div>`;
  })}</section>`;
}

/**
 * Where the document links to (a deleted target said so), its links that no longer lead anywhere
 * (a title renamed or shared, an artifact gone) and which readable artifacts link here.
 */
function linksSection(orgId: string, artifact: ArtifactView): SafeHtml {
  const links = artifact.links ?? [];
  const referencedBy = artifact.referencedBy ?? [];
  const unresolved = artifact.unresolvedLinks ?? [];
  if (links.length === 0 && referencedBy.length === 0 && unresolved.length === 0) return html``;
  const item = (r: { id: string; type: ArtifactView['type']; title: string; deleted?: true }) =>
    r.deleted
      ? html`<li class="deleted-link">${typeBadge(r.type)} <del>${r.title}</del> <span class="small muted">(deleted)</span></li>`
      : html`<li>${typeBadge(r.type)} <a href="/o/${orgId}/a/${r.id}">${r.title}</a></li>`;
  return html`<section class="links" aria-label="Links">
  ${links.length ? html`<div class="child-group"><h2 id="h-links-to">Links to <span class="count">${links.length}</span></h2><ul class="child-list" aria-labelledby="h-links-to">${links.map(item)}</ul></div>` : ''}
  ${unresolved.length ? html`<div class="child-group"><h2 id="h-unresolved">Links that lead nowhere <span class="count">${unresolved.length}</span></h2><ul class="child-list" aria-labelledby="h-unresolved">${unresolved.map((u) => html`<li class="unresolved-link"><code>${u.link}</code> <span class="small muted">(${u.reason})</span></li>`)}</ul></div>` : ''}
  ${referencedBy.length ? html`<div class="child-group"><h2 id="h-referenced-by">Referenced by <span class="count">${referencedBy.length}</span></h2><ul class="child-list" aria-labelledby="h-referenced-by">${referencedBy.map(item)}</ul></div>` : ''}
</section>`;
}

export interface ArtifactPageInput {
  readonly artifact: ArtifactView;
  readonly crumbs: readonly Crumb[];
  readonly children: readonly TreeNode[];
  readonly tree: { product: TreeNode; pages: FolderTreeNode };
  readonly latest: HistoryEntry | undefined;
  readonly changeCount: number;
  readonly canWrite: boolean;
  /** The rendered document (see RenderedDocuments). */
  readonly document: SafeHtml;
}

export function artifactPage(orgId: string, input: ArtifactPageInput): SafeHtml {
  const { artifact, canWrite } = input;
  const base = `/o/${orgId}/a/${artifact.id}`;
  const editable = canWrite && artifactType(artifact.type).editable;
  // The tree comes after the document in reading and Tab order; the stylesheet shows it on the left.
  return html`<div class="with-side-tree">
<div class="beside-tree">
${breadcrumb(orgId, input.crumbs)}
<article class="artifact">
  <header class="artifact-head">
    <p class="badges">${typeBadge(artifact.type)}${requirementBadge(artifact.requirementType)}</p>
    <h1>${artifact.title}</h1>
    <p class="meta">Last changed ${when(artifact.updatedAt)} by <strong class="author">${artifact.updatedBy}</strong>${input.latest ? html` through ${clientLabel(input.latest.client)}` : ''}</p>
    <nav class="actions" aria-label="Artifact">
      ${editable ? html`<a class="button" href="${base}/edit">Edit</a>` : ''}
      <a class="button ${editable ? 'secondary' : ''}" href="${base}/history">History <span class="count">${input.changeCount}</span></a>
      <a class="button secondary" href="${base}/blame">Blame</a>
      <a class="button secondary" href="${base}/raw">Raw markdown</a>
      <a class="button secondary" href="${base}/export" download>Export .zip</a>
      <button type="button" class="button secondary" data-copy="${artifact.id}" title="Copy the artifact id">Copy id</button>
      ${editable && artifact.type !== 'product' ? html`<a class="button secondary" href="${base}/move">Move</a> <a class="button secondary danger-text" href="${base}/delete">Delete</a>` : ''}
    </nav>
  </header>
  <div class="doc markdown">${input.document}</div>
  ${childrenSection(orgId, artifact, input.children, canWrite)}
  ${linksSection(orgId, artifact)}
  <footer class="artifact-foot"><p class="small mono">id ${artifact.id} · version ${artifact.version.slice(0, 7)}</p></footer>
</article>
</div>
${sideTree(orgId, input.tree, artifact.id)}
</div>`;
}
