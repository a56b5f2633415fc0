import type { ArtifactView, ChangeView, Crumb, HistoryPage } from '../../domain/types.js';
import { html, type SafeHtml } from '../html.js';
import { breadcrumb } from './artifact.js';
import { diffTable, layoutSwitch, type DiffLayout } from './diff.js';
import { clientLabel, lineCounts, messageSubject, shortCommit, when } from './format.js';
import { filterForm, pager, timeline, undoLink, type TimelineFilters } from './timeline.js';

type Title = Pick<ArtifactView, 'id' | 'title'>;

const base = (orgId: string, id: string) => `/o/${orgId}/a/${id}`;

export function historyPage(
  orgId: string,
  artifact: Title,
  crumbs: readonly Crumb[],
  page: HistoryPage,
  filters: TimelineFilters,
  onFirstPage: boolean,
): SafeHtml {
  const b = base(orgId, artifact.id);
  const entries = page.entries;
  const newest = entries[0]?.commit ?? '';
  const oldest = entries.at(-1)?.commit ?? '';
  const versionOptions = (selected: string) =>
    entries
      .filter((e) => e.verb !== 'delete')
      .map(
        (e) =>
          html`<option value="${e.commit}"${e.commit === selected ? html` selected` : ''}>${shortCommit(e.commit)} · ${messageSubject(e.message)}</option>`,
      );
  return html`${breadcrumb(orgId, crumbs, { label: artifact.title, id: artifact.id })}
<div class="page-head"><h1>History</h1><p class="lede">Changes to “${artifact.title}”, newest first. <a href="${b}/blame">Who wrote each line</a></p></div>
${filterForm(`${b}/history`, filters)}
${timeline(orgId, page, false, Object.values(filters).some(Boolean))}
${pager(`${b}/history`, filters, page, onFirstPage)}
${
  entries.length > 1
    ? html`<section class="panel"><h2>Compare two versions</h2>
<form class="compare" action="${b}/compare" method="get">
  <p><label for="from">From</label> <select id="from" name="from">${versionOptions(oldest)}</select></p>
  <p><label for="to">To</label> <select id="to" name="to">${versionOptions(newest)}</select></p>
  <p><button type="submit">Show differences</button></p>
</form></section>`
    : ''
}`;
}

export function changePage(
  orgId: string,
  artifact: Title,
  crumbs: readonly Crumb[],
  change: ChangeView,
  canWrite: boolean,
  layout: DiffLayout,
): SafeHtml {
  const b = base(orgId, artifact.id);
  const revertable = change.verb !== 'create' && change.verb !== 'delete' && change.parent !== null;
  // A delete left no version to view or restore; the Deleted page brings the artifact back.
  const hasVersion = change.verb !== 'delete';
  return html`${breadcrumb(orgId, crumbs, { label: artifact.title, id: artifact.id })}
<div class="page-head">
  <p class="eyebrow"><a href="${b}/history">← History</a></p>
  <h1>${change.summary ?? messageSubject(change.message)}</h1>
  ${change.summary ? html`<p class="meta">${messageSubject(change.message)}</p>` : ''}
  ${undoLink(orgId, artifact.id, change.undoes)}
  <p class="meta"><strong class="author">${change.author.name}</strong> &lt;${change.author.email}&gt; · ${when(change.authoredAt)} · ${clientLabel(change.client)} · <span class="mono">${change.commit}</span> ${lineCounts(change)}</p>
  <nav class="actions" aria-label="Change">
    ${hasVersion ? html`<a class="button secondary" href="${b}/versions/${change.commit}">View this version</a>` : ''}
    ${
      canWrite && hasVersion
        ? html`${revertable ? html`<a class="button danger" href="${b}/revert?commit=${change.commit}">Revert this change</a>` : ''}
    <a class="button" href="${b}/restore?commit=${change.commit}">Restore this version</a>`
        : ''
    }
  </nav>
</div>
${layoutSwitch(`${b}/changes/${change.commit}`, {}, layout)}
${diffTable(change.diff, `Changes made by ${shortCommit(change.commit)}`, layout)}`;
}

export function comparePage(
  orgId: string,
  artifact: Title,
  crumbs: readonly Crumb[],
  from: string,
  to: string,
  diff: string,
  layout: DiffLayout,
): SafeHtml {
  const b = base(orgId, artifact.id);
  return html`${breadcrumb(orgId, crumbs, { label: artifact.title, id: artifact.id })}
<div class="page-head">
  <p class="eyebrow"><a href="${b}/history">← History</a></p>
  <h1>Compare versions</h1>
  <p class="meta">From <a class="mono" href="${b}/changes/${from}">${shortCommit(from)}</a> to <a class="mono" href="${b}/changes/${to}">${shortCommit(to)}</a></p>
</div>
${layoutSwitch(`${b}/compare`, { from, to }, layout)}
${diffTable(diff, `Differences from ${shortCommit(from)} to ${shortCommit(to)}`, layout)}`;
}
