import type { ArtifactView, BlameView, Crumb } from '../../domain/types.js';
import { html, type SafeHtml } from '../html.js';
import { breadcrumb } from './artifact.js';
import { shortCommit, when } from './format.js';

/** Each line with the change that last touched it; a run of lines from one change is labelled once. */
export function blamePage(orgId: string, artifact: ArtifactView, crumbs: readonly Crumb[], blame: BlameView): SafeHtml {
  const b = `/o/${orgId}/a/${artifact.id}`;
  const authors = new Set(blame.lines.map((l) => l.author.email)).size;
  const changes = new Set(blame.lines.map((l) => l.commit)).size;
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
    : html`<div class="diff-wrap"><table class="blame">
<caption class="visually-hidden">Blame of ${artifact.title}</caption>
<thead class="visually-hidden"><tr><th scope="col">Last change</th><th scope="col">Line</th><th scope="col">Text</th></tr></thead>
<tbody>${blame.lines.map((l, i) => {
        const first = i === 0 || blame.lines[i - 1]!.commit !== l.commit;
        return html`<tr class="${first ? 'first' : 'same'}" data-commit="${l.commit}">
<td class="who">${
          first
            ? html`<a href="${b}/changes/${l.commit}" title="${l.subject ?? ''}">${shortCommit(l.commit)}</a> <strong>${l.author.name}</strong> <span class="who-extra">· ${when(l.authoredAt)} · ${l.client ?? 'unknown client'}</span>`
            : ''
        }</td>
<td class="ln">${l.line}</td><td class="code">${l.text || ' '}</td></tr>`;
      })}</tbody>
</table></div>`
}`;
}
