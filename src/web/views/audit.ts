import type { AuditPage, AuditRecord } from '../../control/types.js';
import type { TitleAsOf } from '../../domain/types.js';
import { html, type SafeHtml } from '../html.js';
import { scrollBox, shortCommit, when } from './format.js';

/** The audit log's filters as the page's GET form carries them. */
export interface AuditFilters {
  readonly user?: string;
  readonly client?: string;
  readonly action?: string;
  readonly artifact?: string;
  readonly since?: string;
  readonly until?: string;
}

export const AUDIT_FILTERS = ['user', 'client', 'action', 'artifact', 'since', 'until'] as const;

export const auditParams = (filters: AuditFilters): Record<string, string> =>
  Object.fromEntries(
    Object.entries(filters).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
    ),
  );

const withQuery = (path: string, params: Record<string, string>) =>
  Object.keys(params).length ? `${path}?${new URLSearchParams(params).toString()}` : path;

function filterForm(action: string, filters: AuditFilters): SafeHtml {
  const field = (name: keyof AuditFilters, label: string, extra: SafeHtml = html``) =>
    html`<p><label for="a-${name}">${label}</label><input id="a-${name}" name="${name}" value="${filters[name] ?? ''}"${extra}></p>`;
  return html`<form class="filters" method="get" action="${action}" aria-label="Filter the audit log">
  ${field('user', 'User', html` type="email" placeholder="Email"`)}
  ${field('client', 'Client', html` placeholder="web, claude-code…"`)}
  ${field('action', 'Tool or action', html` placeholder="specbase_edit_feature, web.edit…"`)}
  ${field('artifact', 'Artifact', html` placeholder="Artifact id" class="mono"`)}
  ${field('since', 'From (UTC day)', html` type="date"`)}
  ${field('until', 'To (UTC day)', html` type="date"`)}
  <p class="filter-actions"><button type="submit" class="secondary">Filter</button>${Object.keys(auditParams(filters)).length ? html` <a href="${action}">Clear</a>` : ''}</p>
</form>`;
}

function who(entry: AuditRecord): SafeHtml {
  if (entry.userEmail)
    return html`<span title="${entry.userEmail}">${entry.userName ?? entry.userEmail}</span><br><span class="summary">${entry.userEmail}</span>`;
  return html`<span class="summary">${entry.userId ?? (entry.kind === 'cli' ? 'command line' : 'unknown')}</span>`;
}

function result(entry: AuditRecord): SafeHtml {
  if (entry.outcome === 'ok') return html`<span class="badge ok">ok</span>`;
  const errorClass = /^([a-z_]+):/.exec(entry.detail ?? '')?.[1] ?? 'error';
  return html`<span class="badge blocked" title="${entry.detail ?? ''}">${errorClass}</span>`;
}

/** The artifact by the title it had then, linking to it (a deleted one, to the Deleted page); its id where unknown. */
function artifactCell(orgId: string, entry: AuditRecord, title: TitleAsOf | undefined): SafeHtml {
  if (!entry.artifactId) return html`—`;
  if (!title) return html`<span class="mono">${entry.artifactId.slice(0, 8)}</span>`;
  return title.deleted
    ? html`<a href="/o/${orgId}/deleted" title="${entry.artifactId}">${title.title}</a> <span class="small muted">(deleted)</span>`
    : html`<a href="/o/${orgId}/a/${entry.artifactId}" title="${entry.artifactId}">${title.title}</a>`;
}

function row(orgId: string, entry: AuditRecord, title: TitleAsOf | undefined): SafeHtml {
  return html`<tr data-audit="${entry.id}">
<td>${when(entry.at)}</td>
<td>${who(entry)}</td>
<td class="audit-client">${entry.client ?? '—'}</td>
<td class="audit-action mono">${entry.action}</td>
<td class="audit-artifact">${artifactCell(orgId, entry, title)}${entry.commit ? html`<br><span class="mono summary">${shortCommit(entry.commit)}</span>` : ''}</td>
<td class="audit-result">${result(entry)}</td>
<td class="audit-detail">${entry.detail ?? ''}</td>
</tr>`;
}

/** The organization's audit log for its admins: filters, a page of entries newest first, export links. */
export function auditPage(
  orgId: string,
  page: AuditPage,
  titles: readonly (TitleAsOf | undefined)[],
  filters: AuditFilters,
  onFirstPage: boolean,
): SafeHtml {
  const action = `/o/${orgId}/audit`;
  const params = auditParams(filters);
  const filtered = Object.keys(params).length > 0;
  return html`<div class="page-head"><h1>Audit log</h1><p class="lede">Every tool call, clone, change in the browser and sign-in of this organization’s members, newest first. Only organization admins see it.</p></div>
${filterForm(action, filters)}
<p class="export">Export ${filtered ? 'the filtered log' : 'the whole log'}: <a href="${withQuery(`${action}/export.csv`, params)}" download>CSV</a> · <a href="${withQuery(`${action}/export.json`, params)}" download>JSON</a></p>
${
  page.entries.length === 0
    ? html`<p class="empty">${filtered ? 'No entries match these filters.' : 'Nothing recorded yet.'}</p>`
    : html`${scrollBox(
        'Audit entries',
        html`<table class="tokens audit"><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Client</th><th scope="col">Tool or action</th><th scope="col">Artifact</th><th scope="col">Result</th><th scope="col">Detail</th></tr></thead>
<tbody>${page.entries.map((entry, i) => row(orgId, entry, titles[i]))}</tbody></table>`,
      )}`
}
${
  onFirstPage && !page.next
    ? ''
    : html`<nav class="pager" aria-label="Pages">
  ${onFirstPage ? html`<span></span>` : html`<a class="button secondary" href="${withQuery(action, params)}">← Newest</a>`}
  ${page.next ? html`<a class="button secondary" rel="next" href="${withQuery(action, { ...params, after: page.next })}">Older entries →</a>` : ''}
</nav>`
}`;
}
