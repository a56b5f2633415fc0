import { artifactType } from '../../artifacts/index.js';
import type { ArtifactRef, Crumb, DeletedView, DeletePreview } from '../../domain/types.js';
import { html, type SafeHtml } from '../html.js';
import { breadcrumb } from './artifact.js';
import { clientLabel, scrollBox, shortCommit, typeBadge, when } from './format.js';

const refItem = (orgId: string, ref: ArtifactRef): SafeHtml =>
  html`<li>${typeBadge(ref.type)} <a href="/o/${orgId}/a/${ref.id}">${ref.title}</a></li>`;

/** "Delete this …?": what goes with it, then a CSRF-protected POST. */
export function deleteConfirmPage(
  orgId: string,
  preview: DeletePreview,
  crumbs: readonly Crumb[],
  csrf: string,
): SafeHtml {
  const { artifact, descendants } = preview;
  const name = artifactType(artifact.type).name.toLowerCase();
  const b = `/o/${orgId}/a/${artifact.id}`;
  return html`${breadcrumb(orgId, crumbs, { label: artifact.title, id: artifact.id })}
<div class="page-head">
  <p class="eyebrow"><a href="${b}">← ${artifact.title}</a></p>
  <h1>Delete this ${name}?</h1>
</div>
<p class="lede">Removes “${artifact.title}”${descendants.length ? ` and the ${descendants.length} ${descendants.length === 1 ? 'artifact' : 'artifacts'} under it` : ''} as one change in your name. Its history stays: the organization's Deleted page brings it back with its content${descendants.length ? ' and everything deleted with it' : ''}.</p>
${
  descendants.length
    ? html`<section class="panel" aria-labelledby="goes-with"><h2 id="goes-with">Deleted with it <span class="count">${descendants.length}</span></h2><ul class="deleted-with">${descendants.map((d) => refItem(orgId, d))}</ul></section>`
    : ''
}
${
  preview.linkedFrom.length
    ? html`<section class="panel" aria-labelledby="linked-from"><h2 id="linked-from">Linked from <span class="count">${preview.linkedFrom.length}</span></h2><p class="small muted">Their links will show the ${name} as deleted.</p><ul class="linked-from">${preview.linkedFrom.map((d) => refItem(orgId, d))}</ul></section>`
    : ''
}
<form class="confirm" method="post" action="${b}/delete">
  <input type="hidden" name="csrf" value="${csrf}">
  <input type="hidden" name="descendants" value="${String(descendants.length)}">
  <button type="submit" class="danger">Delete ${descendants.length ? `${name} and ${descendants.length} under it` : name}</button>
  <a class="button secondary" href="${b}">Cancel</a>
</form>`;
}

/** The organization's deleted artifacts: what, who, when, and Restore for those who may. */
export function deletedPage(orgId: string, deleted: readonly DeletedView[], csrf: string, problem?: string): SafeHtml {
  return html`<div class="page-head"><h1>Deleted</h1><p class="lede">Artifacts deleted from the organization, newest first. A restore brings one back with its id, content, history and what was deleted with it.</p></div>
${problem ? html`<div class="notice error" role="alert"><strong>Nothing was restored.</strong> ${problem}</div>` : ''}
${
  deleted.length === 0
    ? html`<p class="empty">Nothing has been deleted.</p>`
    : html`${scrollBox(
        'Deleted artifacts',
        html`<table class="listing deleted">
<thead><tr><th scope="col">What</th><th scope="col">Deleted by</th><th scope="col">When</th><th scope="col"><span class="visually-hidden">Restore</span></th></tr></thead>
<tbody>${deleted.map(
          (d) => html`<tr>
  <td>${typeBadge(d.type)} <strong>${d.title}</strong>${d.descendants ? html` <span class="small muted">with ${d.descendants} under it</span>` : ''}</td>
  <td>${d.deletedBy.name} · ${clientLabel(d.client)}</td>
  <td>${when(d.deletedAt)} · <span class="mono">${shortCommit(d.commit)}</span></td>
  <td>${
    d.canRestore
      ? html`<form method="post" action="/o/${orgId}/deleted/${d.id}/restore"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="small" aria-label="Restore ${d.title}">Restore</button></form>`
      : ''
  }</td>
</tr>`,
        )}</tbody></table>`,
      )}`
}`;
}
