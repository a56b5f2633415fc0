import type { Crumb, ArtifactView } from '../../domain/types.js';
import type { HistoryEntry } from '../../store/types.js';
import { html, type SafeHtml } from '../html.js';
import { renderMarkdown, withoutTitleHeading } from '../markdown.js';
import { clientLabel, requirementBadge, typeBadge, when } from './format.js';

export function breadcrumb(orgId: string, crumbs: readonly Crumb[], current?: { label: string; id: string }): SafeHtml {
  const items = [...crumbs, ...(current ? [current] : [])];
  return html`<nav class="breadcrumb" aria-label="Breadcrumb"><ol>${items.map(
    (c) => html`<li>${c.id ? html`<a href="/o/${orgId}/a/${c.id}">${c.label}</a>` : html`<span>${c.label}</span>`}</li>`,
  )}</ol></nav>`;
}

export function artifactPage(
  orgId: string,
  artifact: ArtifactView,
  crumbs: readonly Crumb[],
  latest: HistoryEntry | undefined,
  changeCount: number,
): SafeHtml {
  const base = `/o/${orgId}/a/${artifact.id}`;
  return html`${breadcrumb(orgId, crumbs)}
<article class="artifact">
  <header class="artifact-head">
    <p class="badges">${typeBadge(artifact.type)}${requirementBadge(artifact.requirementType)}</p>
    <h1>${artifact.title}</h1>
    <p class="meta">Last changed ${when(artifact.updatedAt)} by <strong class="author">${artifact.updatedBy}</strong>${latest ? html` through ${clientLabel(latest.client)}` : ''}</p>
    <nav class="actions" aria-label="Artifact">
      <a class="button" href="${base}/history">History <span class="count">${changeCount}</span></a>
      <a class="button secondary" href="${base}/raw">Raw markdown</a>
      <button type="button" class="button secondary" data-copy="${artifact.id}" title="Copy the artifact id">Copy id</button>
    </nav>
  </header>
  <div class="doc markdown">${renderMarkdown(withoutTitleHeading(artifact.content, artifact.title))}</div>
  <footer class="artifact-foot"><p class="small mono">id ${artifact.id} · version ${artifact.version.slice(0, 7)}</p></footer>
</article>`;
}
