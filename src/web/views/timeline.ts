import type { ChangeSummary, HistoryPage, HistoryQuery } from '../../domain/types.js';
import { html, type SafeHtml } from '../html.js';
import { clientLabel, lineCounts, messageSubject, shortCommit, typeBadge, verbText, when } from './format.js';

export type TimelineFilters = Omit<HistoryQuery, 'cursor' | 'limit'>;

const filterParams = (filters: TimelineFilters): Record<string, string> =>
  Object.fromEntries(
    Object.entries(filters).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
    ),
  );

function firstLines(entry: ChangeSummary): SafeHtml {
  if (entry.firstLines.length === 0) return html``;
  // Not a list: timelines are lists of changes, and their items must stay one per change.
  return html`<div class="first-lines" role="group" aria-label="First changed lines">${entry.firstLines.map(
    (l) =>
      html`<div class="${l.kind}"><span class="mark" aria-label="${l.kind === 'add' ? 'added' : 'removed'}">${l.kind === 'add' ? '+' : '−'}</span>${l.text}</div>`,
  )}</div>`;
}

/** For a revert or a restore: a link to the change it undid or the version it brought back. */
export function undoLink(orgId: string, artifactId: string, undoes: ChangeSummary['undoes']): SafeHtml {
  if (!undoes) return html``;
  const b = `/o/${orgId}/a/${artifactId}`;
  return undoes.kind === 'revert'
    ? html`<p class="undoes">Reverts <a class="mono" href="${b}/changes/${undoes.commit}">${shortCommit(undoes.commit)}</a></p>`
    : html`<p class="undoes">Restores the version of <a class="mono" href="${b}/versions/${undoes.commit}">${shortCommit(undoes.commit)}</a></p>`;
}

/**
 * One change in a history or the activity feed; `withArtifact` names the artifact it changed.
 * In one artifact's history the author's summary is the headline: rows of identical subjects say nothing.
 */
export function timelineEntry(orgId: string, e: ChangeSummary, withArtifact: boolean): SafeHtml {
  const change = `/o/${orgId}/a/${e.artifactId}/changes/${e.commit}`;
  // A deleted artifact has no page and no change pages: the Deleted page is where it comes back from.
  const artifact = e.deleted
    ? html`<del>${e.title}</del> <a class="deleted-artifact" href="/o/${orgId}/deleted">(deleted)</a>`
    : html`<a href="/o/${orgId}/a/${e.artifactId}">${e.title}</a>`;
  const commit =
    withArtifact && !e.deleted
      ? html`<a class="mono" href="${change}">${shortCommit(e.commit)}</a>`
      : html`<span class="mono">${shortCommit(e.commit)}</span>`;
  return html`<li class="change verb-${e.verb}${e.deleted ? ' deleted' : ''}">
  <div class="change-main">
    ${
      withArtifact
        ? html`<p><strong class="author">${e.author.name}</strong> ${e.verb === 'restore' && !e.undoes ? 'restored' : verbText(e.verb)} ${typeBadge(e.artifactType)} ${artifact}</p>`
        : html`<p><a class="subject" href="${change}">${e.summary ?? messageSubject(e.message)}</a></p>`
    }
    ${withArtifact && e.summary ? html`<p class="change-summary">“${e.summary}”</p>` : ''}
    ${e.deleted ? '' : undoLink(orgId, e.artifactId, e.undoes)}
    ${firstLines(e)}
    <p class="meta">${withArtifact ? '' : html`<strong class="author">${e.author.name}</strong> · `}${when(e.authoredAt)} · ${clientLabel(e.client)} · ${commit}</p>
  </div>
  ${lineCounts(e)}
</li>`;
}

/** Author, client and dates; a GET form, so a filtered page is a link that can be shared. */
export function filterForm(action: string, filters: TimelineFilters): SafeHtml {
  const active = Object.keys(filterParams(filters)).length > 0;
  return html`<form class="filters" method="get" action="${action}" aria-label="Filter changes">
  <p><label for="f-author">Author</label><input id="f-author" name="author" value="${filters.author ?? ''}" placeholder="Name or email"></p>
  <p><label for="f-client">Client</label><input id="f-client" name="client" value="${filters.client ?? ''}" placeholder="web, claude-code…" list="f-clients"></p>
  <datalist id="f-clients"><option value="web"></option><option value="cli"></option></datalist>
  <p><label for="f-since">From <span class="optional">(UTC day)</span></label><input id="f-since" type="date" name="since" value="${filters.since ?? ''}"></p>
  <p><label for="f-until">To <span class="optional">(UTC day)</span></label><input id="f-until" type="date" name="until" value="${filters.until ?? ''}"></p>
  <p class="filter-actions"><button type="submit" class="secondary">Filter</button>${active ? html` <a href="${action}">Clear</a>` : ''}</p>
</form>`;
}

/** Newest-first pages: back to the newest, on to older ones, filters kept. */
export function pager(action: string, filters: TimelineFilters, page: HistoryPage, onFirstPage: boolean): SafeHtml {
  const params = filterParams(filters);
  const newest = Object.keys(params).length ? `${action}?${new URLSearchParams(params).toString()}` : action;
  if (onFirstPage && !page.next) return html``;
  return html`<nav class="pager" aria-label="Pages">
  ${onFirstPage ? html`<span></span>` : html`<a class="button secondary" href="${newest}">← Newest</a>`}
  ${page.next ? html`<a class="button secondary" rel="next" href="${action}?${new URLSearchParams({ ...params, after: page.next }).toString()}">Older changes →</a>` : ''}
</nav>`;
}

export function timeline(orgId: string, page: HistoryPage, withArtifact: boolean, filtered: boolean): SafeHtml {
  if (page.entries.length === 0)
    return html`<p class="empty">${filtered ? 'No changes match these filters.' : 'No changes yet.'}</p>`;
  return html`<ol class="timeline${withArtifact ? ' activity' : ''}">${page.entries.map((e) => timelineEntry(orgId, e, withArtifact))}</ol>`;
}
