import type { HistoryEntry } from '../../store/types.js';
import { html, type SafeHtml } from '../html.js';
import { clientLabel, lineCounts, typeBadge, verbText, when } from './format.js';

export function activityPage(orgId: string, entries: readonly HistoryEntry[]): SafeHtml {
  return html`<div class="page-head"><h1>Activity</h1><p class="lede">Recent changes across the organization, newest first.</p></div>
${entries.length
    ? html`<ol class="timeline activity">${entries.map(
        (e) => html`<li class="change verb-${e.verb}">
  <div class="change-main">
    <p><strong class="author">${e.author.name}</strong> ${verbText(e.verb)} ${typeBadge(e.artifactType)} <a href="/o/${orgId}/a/${e.artifactId}">${e.title}</a></p>
    <p class="meta">${when(e.authoredAt)} · ${clientLabel(e.client)} · <a class="mono" href="/o/${orgId}/a/${e.artifactId}/changes/${e.commit}">${e.commit.slice(0, 7)}</a></p>
  </div>
  ${lineCounts(e)}
</li>`,
      )}</ol>`
    : html`<p class="empty">No changes yet.</p>`}`;
}
