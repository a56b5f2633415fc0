import type { ArtifactView, ChangeView, Crumb } from '../../domain/types.js';
import { html, type SafeHtml } from '../html.js';
import { breadcrumb } from './artifact.js';
import { shortCommit, when } from './format.js';

/** An old version as it read then, title included, with the way back to it. */
export function versionPage(
  orgId: string,
  artifact: ArtifactView,
  crumbs: readonly Crumb[],
  change: ChangeView,
  document: SafeHtml,
  canWrite: boolean,
): SafeHtml {
  const b = `/o/${orgId}/a/${artifact.id}`;
  const current = change.commit === artifact.version;
  return html`${breadcrumb(orgId, crumbs, { label: artifact.title, id: artifact.id })}
<div class="notice version-note" role="note">
  <p>${current ? 'This is the current version' : 'You are looking at an earlier version'}: ${when(change.authoredAt)} by <strong>${change.author.name}</strong>
  (<a class="mono" href="${b}/changes/${change.commit}">${shortCommit(change.commit)}</a>).</p>
  <p class="actions">
    ${!current && canWrite ? html`<a class="button" href="${b}/restore?commit=${change.commit}">Restore this version</a>` : ''}
    ${current ? '' : html`<a class="button secondary" href="${b}/compare?from=${change.commit}&amp;to=${artifact.version}">Compare with the current version</a>`}
    <a class="button secondary" href="${b}">Current version</a>
    <a class="button secondary" href="${b}/history">History</a>
  </p>
</div>
<article class="artifact old-version"><div class="doc markdown">${document}</div></article>`;
}
