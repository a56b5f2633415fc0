import { ARTIFACT_TYPE_TABLE, type ArtifactType } from '../../artifacts/index.js';
import type { Organization } from '../../control/types.js';
import type { HighlightedResultView } from '../../domain/types.js';
import { html, type SafeHtml } from '../html.js';
import { typeBadge } from './format.js';

/** The text with the given ranges wrapped in `<mark>`; everything else escaped as usual. */
export function highlighted(text: string, ranges: readonly (readonly [number, number])[]): SafeHtml {
  const parts: (string | SafeHtml)[] = [];
  let at = 0;
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (start < at || end > text.length) continue;
    parts.push(text.slice(at, start), html`<mark>${text.slice(start, end)}</mark>`);
    at = end;
  }
  parts.push(text.slice(at));
  return html`${parts}`;
}

export function searchView(
  org: Organization,
  query: string,
  type: ArtifactType | undefined,
  results: readonly HighlightedResultView[],
  notice?: string,
): SafeHtml {
  return html`<div class="page-head"><h1>Search</h1>
<form class="search-large" role="search" action="/o/${org.id}/search" method="get">
  <label for="q">Search titles and documents</label>
  <div class="row"><input id="q" type="search" name="q" value="${query}" autofocus>
  <label class="visually-hidden" for="type">Type</label>
  <select id="type" name="type"><option value="">All types</option>${ARTIFACT_TYPE_TABLE.map(
    (def) => html`<option value="${def.type}"${def.type === type ? html` selected` : ''}>${def.pluralName}</option>`,
  )}</select>
  <button type="submit">Search</button></div>
</form></div>
${notice ? html`<p class="notice">${notice}</p>` : ''}
${
  query
    ? results.length
      ? html`<p class="summary">${results.length} result${results.length === 1 ? '' : 's'} for “${query}”</p>
<ol class="results">${results.map(
          (
            r,
          ) => html`<li><a href="/o/${org.id}/a/${r.id}">${typeBadge(r.type)} <span class="title">${highlighted(r.title, r.titleMatches)}</span></a>
${r.crumbs.length ? html`<p class="crumbs-line">${r.crumbs.map((c, i) => html`${i ? ' › ' : ''}${c.label}`)}</p>` : ''}
<p class="preview">${highlighted(r.preview, r.previewMatches)}</p></li>`,
        )}</ol>`
      : html`<p class="empty">Nothing matches “${query}”${type ? ' among this type' : ''}.</p>`
    : ''
}`;
}
