import type { ChangeRequestDetailView } from '../../../domain/index.js';
import { html, type SafeHtml } from '../../html.js';
import type { DiffLayout } from '../diff.js';
import { clientLabel, shortCommit, when } from '../format.js';
import { combinedDiff, commitList } from './files.js';
import { stateBadge } from './state.js';
import { commentThread } from './thread.js';

export interface ChangeRequestPageModel {
  readonly orgId: string;
  readonly changeRequest: ChangeRequestDetailView;
  /** Its description, rendered by the sanitizing markdown renderer. */
  readonly description: SafeHtml;
  readonly layout: DiffLayout;
  readonly csrf: string;
  /** Whether the reader may close or reopen it (its author, or an editor of what it changes). */
  readonly mayAdminister: boolean;
  /** What the last action did, in a sentence. */
  readonly done?: string;
}

const postButton = (action: string, csrf: string, label: string, kind: string, confirm?: string) =>
  html`<form method="post" action="${action}"${confirm ? html` data-confirm="${confirm}"` : ''}><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="${kind}">${label}</button></form>`;

/** Merge, with why not beside it when the reader may not; close or reopen for those who may. */
function actions(model: ChangeRequestPageModel): SafeHtml {
  const cr = model.changeRequest;
  const base = `/o/${model.orgId}/cr/${cr.number}`;
  const merge =
    cr.state !== 'open'
      ? html``
      : cr.merge.allowed
        ? postButton(`${base}/merge`, model.csrf, 'Merge into main', '')
        : html`<button type="button" disabled aria-describedby="merge-why">Merge into main</button>`;
  const reason =
    cr.state === 'open' && !cr.merge.allowed
      ? html`<p id="merge-why" class="merge-why">Cannot merge: ${cr.merge.reason}.</p>`
      : html``;
  const state = !model.mayAdminister
    ? html``
    : cr.state === 'open'
      ? postButton(`${base}/close`, model.csrf, 'Close', 'secondary', 'Close this change request? It can be reopened.')
      : cr.state === 'closed'
        ? postButton(`${base}/reopen`, model.csrf, 'Reopen', 'secondary')
        : html``;
  return html`<div class="actions cr-actions">${merge}${state}</div>${reason}`;
}

function outcome(cr: ChangeRequestDetailView): SafeHtml {
  if (cr.state === 'merged' && cr.mergeCommit)
    return html`<p class="meta">Merged ${cr.mergedAt ? when(cr.mergedAt) : ''} as <span class="mono">${shortCommit(cr.mergeCommit)}</span>: its changes are ordinary history on main.</p>`;
  if (cr.state === 'closed')
    return html`<p class="meta">Closed ${cr.closedAt ? when(cr.closedAt) : ''} without merging.</p>`;
  return html``;
}

/** One change request for review: what it is, the combined diff, its commits and its thread. */
export function changeRequestPage(model: ChangeRequestPageModel): SafeHtml {
  const cr = model.changeRequest;
  const hint = `git diff main...${cr.branch}`;
  return html`<div class="page-head">
  <p class="eyebrow"><a href="/o/${model.orgId}/cr">← Change requests</a></p>
  <h1>${cr.title} <span class="muted">#${cr.number}</span></h1>
  <p class="meta">${stateBadge(cr)} ${cr.author ? html`<strong class="author">${cr.author.name}</strong>` : 'A former member'} opened it ${when(cr.createdAt)}${
    cr.client ? html` through ${clientLabel(cr.client)}` : ''
  } · updated ${when(cr.updatedAt)}</p>
  <p class="meta cr-branch">Branch <code>${cr.branch}</code> · in a clone: <code id="cr-diff-hint">${hint}</code> <button type="button" class="copy small" data-copy-target="cr-diff-hint">Copy</button></p>
  ${outcome(cr)}
  ${actions(model)}
</div>
${model.done ? html`<div class="notice success" role="status">${model.done}</div>` : ''}
${cr.description.trim() ? html`<section class="panel doc markdown cr-description" aria-label="Description">${model.description}</section>` : ''}
${combinedDiff(model.orgId, cr, model.layout)}
${commitList(cr)}
${commentThread(model.orgId, cr, model.csrf)}`;
}
