import { artifactType, REQUIREMENT_TYPES, type ArtifactType } from '../../artifacts/index.js';
import type { Crumb, FolderView } from '../../domain/types.js';
import { html, type SafeHtml } from '../html.js';
import { breadcrumb } from './artifact.js';
import { requirementLabel, typeName } from './format.js';

const problemNotice = (problem?: string): SafeHtml =>
  problem
    ? html`<div class="notice error" role="alert"><strong>Nothing was created.</strong> ${problem}</div>`
    : html``;

/** "New feature in Catalog and Search": a title (and a requirement type), then the editor opens. */
export function newChildPage(
  orgId: string,
  parent: { id: string; title: string; type: ArtifactType },
  crumbs: readonly Crumb[],
  type: ArtifactType,
  csrf: string,
  problem?: string,
): SafeHtml {
  const def = artifactType(type);
  return html`${breadcrumb(orgId, crumbs, { label: parent.title, id: parent.id })}
<div class="page-head">
  <p class="eyebrow"><a href="/o/${orgId}/a/${parent.id}">← ${parent.title}</a></p>
  <h1>New ${def.name.toLowerCase()}</h1>
  <p class="lede">A ${def.name.toLowerCase()} is ${def.summary}. It starts from the ${def.name.toLowerCase()} template; you can write it next.</p>
</div>
${problemNotice(problem)}
<form class="panel stacked" method="post" action="/o/${orgId}/a/${parent.id}/new">
  <input type="hidden" name="csrf" value="${csrf}">
  <input type="hidden" name="type" value="${type}">
  <p><label for="title">Title</label><input id="title" name="title" required maxlength="200" autofocus></p>
  ${
    type === 'requirement'
      ? html`<fieldset><legend>Requirement type</legend>${REQUIREMENT_TYPES.map(
          (t, i) =>
            html`<label class="choice"><input type="radio" name="requirementType" value="${t}"${i === 0 ? html` checked` : ''}> ${requirementLabel(t)}</label>`,
        )}</fieldset>`
      : ''
  }
  <p class="form-actions"><button type="submit">Create ${typeName(type).toLowerCase()}</button> <a class="button secondary" href="/o/${orgId}/a/${parent.id}">Cancel</a></p>
</form>`;
}

/** Folder names with their ancestors ("Team / Meetings"), for choosing where a page or folder goes. */
function folderOptions(folders: readonly FolderView[], selected: string | undefined): SafeHtml[] {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const pathOf = (f: FolderView): string => {
    const names: string[] = [];
    for (
      let at: FolderView | undefined = f;
      at && names.length < 32;
      at = at.parentFolderId ? byId.get(at.parentFolderId) : undefined
    )
      names.unshift(at.name);
    return names.join(' / ');
  };
  return folders
    .map((f) => ({ id: f.id, label: pathOf(f) }))
    .sort((a, b) => a.label.localeCompare(b.label))
    .map((f) => html`<option value="${f.id}"${f.id === selected ? html` selected` : ''}>${f.label}</option>`);
}

/** New page (at the root or in a folder) and new folder, side by side. */
export function newPagePage(
  orgId: string,
  folders: readonly FolderView[],
  folderId: string | undefined,
  csrf: string,
  problem?: string,
): SafeHtml {
  return html`<div class="page-head">
  <p class="eyebrow"><a href="/o/${orgId}#h-pages">← Pages</a></p>
  <h1>New page or folder</h1>
  <p class="lede">Pages are free-form documents: notes, guides, decisions. Folders keep them in order.</p>
</div>
${problemNotice(problem)}
<div class="two-forms">
  <form class="panel stacked" method="post" action="/o/${orgId}/pages">
    <h2>New page</h2>
    <input type="hidden" name="csrf" value="${csrf}">
    <p><label for="page-title">Title</label><input id="page-title" name="title" required maxlength="200" autofocus></p>
    <p><label for="page-folder">Folder</label><select id="page-folder" name="folder"><option value="">No folder (top level)</option>${folderOptions(folders, folderId)}</select></p>
    <p class="form-actions"><button type="submit">Create page</button></p>
  </form>
  <form class="panel stacked" method="post" action="/o/${orgId}/folders">
    <h2>New folder</h2>
    <input type="hidden" name="csrf" value="${csrf}">
    <p><label for="folder-name">Name</label><input id="folder-name" name="name" required maxlength="200"></p>
    <p><label for="folder-parent">Inside</label><select id="folder-parent" name="parent"><option value="">Top level</option>${folderOptions(folders, folderId)}</select></p>
    <p class="form-actions"><button type="submit" class="secondary">Create folder</button></p>
  </form>
</div>`;
}
