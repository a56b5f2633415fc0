import { artifactType } from '../../artifacts/index.js';
import type { ArtifactView, Crumb, FolderView, ListItemView, MoveTarget } from '../../domain/types.js';
import { html, type SafeHtml } from '../html.js';
import { breadcrumb } from './artifact.js';
import { typeBadge } from './format.js';

const ROOT = 'root';

const problemNotice = (problem: string | undefined, what = 'moved'): SafeHtml =>
  problem
    ? html`<div class="notice error" role="alert"><strong>Nothing was ${what}.</strong> ${problem}</div>`
    : html``;

function targetSelect(targets: readonly MoveTarget[], label: string): SafeHtml {
  return html`<p><label for="move-to">${label}</label>
  <select id="move-to" name="to" required>${targets.map((t) => html`<option value="${t.id ?? ROOT}">${t.label}</option>`)}</select></p>`;
}

/** The form's `to`: a parent's id, or null for the top level. */
export const moveTargetParam = (value: unknown): string | null =>
  value === ROOT ? null : typeof value === 'string' ? value : '';

/** "Move this …": where it may go, then a CSRF-protected POST. */
export function moveArtifactPage(
  orgId: string,
  artifact: ArtifactView,
  crumbs: readonly Crumb[],
  targets: readonly MoveTarget[],
  csrf: string,
  problem?: string,
): SafeHtml {
  const def = artifactType(artifact.type);
  const b = `/o/${orgId}/a/${artifact.id}`;
  const under = def.parent === 'folder' ? 'folder' : artifactType(def.parent!).name.toLowerCase();
  return html`${breadcrumb(orgId, crumbs, { label: artifact.title, id: artifact.id })}
<div class="page-head">
  <p class="eyebrow"><a href="${b}">← ${artifact.title}</a></p>
  <h1>Move this ${def.name.toLowerCase()}</h1>
</div>
${problemNotice(problem)}
<p class="lede">Puts “${artifact.title}” and everything under it into another ${under}, as one change in your name. It takes the workspace of where it goes.</p>
${
  targets.length === 0
    ? html`<p class="empty">There is no other ${under} you may move it to.</p>`
    : html`<form class="confirm" method="post" action="${b}/move">
  <input type="hidden" name="csrf" value="${csrf}">
  ${targetSelect(targets, `Move to ${def.parent === 'folder' ? 'folder' : under}`)}
  <button type="submit">Move</button>
  <a class="button secondary" href="${b}">Cancel</a>
</form>`
}`;
}

export interface FolderPageInput {
  readonly folder: FolderView;
  readonly pages: readonly ListItemView[];
  readonly subfolders: readonly FolderView[];
  readonly targets: readonly MoveTarget[] | undefined;
  readonly csrf: string;
  readonly problem?: string;
}

/** A folder: its pages and folders, and for editors Rename, Move and (when empty) Delete. */
export function folderPage(orgId: string, input: FolderPageInput): SafeHtml {
  const { folder, pages, subfolders, targets, csrf } = input;
  const b = `/o/${orgId}/folders/${folder.id}`;
  const empty = pages.length === 0 && subfolders.length === 0;
  return html`<div class="page-head">
  <p class="eyebrow">${folder.parentFolderId ? html`<a href="/o/${orgId}/folders/${folder.parentFolderId}">← Parent folder</a>` : html`<a href="/o/${orgId}">← Product</a>`}</p>
  <h1>${folder.name}</h1>
  <p><a class="button small secondary" href="${b}/export" download>Export .zip</a></p>
</div>
${problemNotice(input.problem, 'changed')}
${
  subfolders.length || pages.length
    ? html`<ul class="tree">${subfolders.map((f) => html`<li class="folder"><a href="/o/${orgId}/folders/${f.id}">${f.name}</a></li>`)}${pages.map(
        (p) =>
          html`<li class="node node-page"><a href="/o/${orgId}/a/${p.id}">${typeBadge('page')} <span class="title">${p.title}</span></a></li>`,
      )}</ul>`
    : html`<p class="empty">Empty folder</p>`
}
${
  targets
    ? html`<section class="panel"><h2>Rename</h2>
<form method="post" action="${b}/rename"><input type="hidden" name="csrf" value="${csrf}">
  <p><label for="folder-name">Name</label> <input id="folder-name" name="name" value="${folder.name}" required maxlength="200"></p>
  <button type="submit">Rename</button></form></section>
<section class="panel"><h2>Move</h2>
${
  targets.length
    ? html`<form method="post" action="${b}/move"><input type="hidden" name="csrf" value="${csrf}">${targetSelect(targets, 'Move into')}<button type="submit">Move</button></form>`
    : html`<p class="empty small">There is no other folder you may move it into.</p>`
}</section>
${
  empty
    ? html`<section class="panel"><h2>Delete</h2><form method="post" action="${b}/delete"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="danger">Delete folder</button></form></section>`
    : html`<p class="small muted">A folder can be deleted once it is empty.</p>`
}`
    : ''
}`;
}
