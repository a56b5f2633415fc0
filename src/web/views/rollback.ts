import type { Crumb, ChangeView } from '../../domain/types.js';
import { html, type SafeHtml } from '../html.js';
import { breadcrumb } from './artifact.js';
import { diffTable } from './diff.js';
import { messageSubject, shortCommit, when } from './format.js';

export type RollbackKind = 'revert' | 'restore';

const WORDING: Record<RollbackKind, { heading: string; explain: string; button: string; previewCaption: string }> = {
  revert: {
    heading: 'Revert this change?',
    explain:
      'Undoes exactly this change in the current document, as a new change in your name. Later changes stay. If a later change touched the same lines, nothing is written and you will be told.',
    button: 'Revert this change',
    previewCaption: 'The change that will be undone',
  },
  restore: {
    heading: 'Restore this version?',
    explain:
      'Makes the document read exactly as it did after this change, as a new change in your name. Nothing in the history is lost: you can roll this back too.',
    button: 'Restore this version',
    previewCaption: 'What changes from the current document',
  },
};

export function confirmPage(
  orgId: string,
  artifact: { id: string; title: string },
  crumbs: readonly Crumb[],
  kind: RollbackKind,
  change: ChangeView,
  preview: string,
  csrf: string,
  problem?: string,
): SafeHtml {
  const b = `/o/${orgId}/a/${artifact.id}`;
  const words = WORDING[kind];
  return html`${breadcrumb(orgId, crumbs, { label: artifact.title, id: artifact.id })}
<div class="page-head">
  <p class="eyebrow"><a href="${b}/changes/${change.commit}">← Change ${shortCommit(change.commit)}</a></p>
  <h1>${words.heading}</h1>
  <p class="meta">“${messageSubject(change.message)}” by <strong>${change.author.name}</strong>, ${when(change.authoredAt)}</p>
</div>
${problem ? html`<div class="notice error" role="alert"><strong>Nothing was written.</strong> ${problem}</div>` : ''}
<p class="lede">${words.explain}</p>
<form class="confirm" method="post" action="${b}/${kind}">
  <input type="hidden" name="csrf" value="${csrf}">
  <input type="hidden" name="commit" value="${change.commit}">
  <button type="submit" class="${kind === 'revert' ? 'danger' : ''}">${words.button}</button>
  <a class="button secondary" href="${b}/changes/${change.commit}">Cancel</a>
</form>
<section class="panel"><h2>${words.previewCaption}</h2>${diffTable(preview, words.previewCaption)}</section>`;
}
