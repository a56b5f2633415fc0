import type { ArtifactView, BlameView, Crumb } from '../../domain/types.js';
import { html, type SafeHtml } from '../html.js';
import { breadcrumb } from './artifact.js';
import { shortCommit, when } from './format.js';

/**
 * Lines of a blame shown at once: a 1 MiB changelog has 20,000 and more: a table that long
 * held the browser for seconds; past it the page moves on by windows of lines.
 */
export const BLAME_WINDOW = 300;

/** The first line (1-based) of the window asked for, as the query string says; a malformed value is the start. */
export function blameWindowStart(value: unknown): number {
  const line = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : 1;
  return Math.max(1, line);
}

function windowPager(base: string, from: number, to: number, total: number): SafeHtml {
  if (total <= BLAME_WINDOW) return html``;
  const at = (line: number) => `${base}/blame?from=${line}`;
  return html`<nav class="pager" aria-label="Lines">
  ${from > 1 ? html`<a class="button secondary" href="${at(Math.max(1, from - BLAME_WINDOW))}">← Lines before</a>` : html`<span></span>`}
  <span class="small muted">Lines ${from}–${to} of ${total}</span>
  ${to < total ? html`<a class="button secondary" rel="next" href="${at(to + 1)}">Lines after →</a>` : html`<span></span>`}
</nav>`;
}

/** Each line with the change that last touched it; a run of lines from one change is labelled once. */
export function blamePage(
  orgId: string,
  artifact: ArtifactView,
  crumbs: readonly Crumb[],
  blame: BlameView,
  from = 1,
): SafeHtml {
  const b = `/o/${orgId}/a/${artifact.id}`;
  const authors = new Set(blame.lines.map((l) => l.author.email)).size;
  const changes = new Set(blame.lines.map((l) => l.commit)).size;
  const start = Math.min(from, Math.max(1, blame.lines.length - BLAME_WINDOW + 1)) - 1;
  const shown = blame.lines.slice(start, start + BLAME_WINDOW);
  const pager = windowPager(b, start + 1, start + shown.length, blame.lines.length);
  return html`${breadcrumb(orgId, crumbs, { label: artifact.title, id: artifact.id })}
<div class="page-head">
  <p class="eyebrow"><a href="${b}">← ${artifact.title}</a></p>
  <h1>Blame</h1>
  <p class="lede">Who last changed each line of the current version (<span class="mono">${shortCommit(blame.version)}</span>):
  ${blame.lines.length} line${blame.lines.length === 1 ? '' : 's'} from ${changes} change${changes === 1 ? '' : 's'} by ${authors} author${authors === 1 ? '' : 's'}. <a href="${b}/history">History</a></p>
</div>
${
  blame.lines.length === 0
    ? html`<p class="empty">The document is empty.</p>`
    : html`${pager}<div class="diff-wrap"><table class="blame">
<caption class="visually-hidden">Blame of ${artifact.title}</caption>
<thead class="visually-hidden"><tr><th scope="col">Last change</th><th scope="col">Line</th><th scope="col">Text</th></tr></thead>
<tbody>${shown.map((l, i) => {
        const first = i === 0 || shown[i - 1]!.commit !== l.commit;
        return html`<tr class="${first ? 'first' : 'same'}" data-commit="${l.commit}">
<td class="who">${
          first
            ? html`<a href="${b}/changes/${l.commit}" title="${l.subject ?? ''}">${shortCommit(l.commit)}</a> <strong>${l.author.name}</strong> <span class="who-extra">· ${when(l.authoredAt)} · ${l.client ?? 'unknown client'}</span>`
            : ''
        }</td>
<td class="ln">${l.line}</td><td class="code">${l.text || ' '}</td></tr>`;
      })}</tbody>
</table></div>${pager}`
}`;
}
