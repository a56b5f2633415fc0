import type { ChangeRequestDetailView, ChangeRequestFileView } from '../../../domain/index.js';
import { isArtifactType } from '../../../artifacts/index.js';
import { html, type SafeHtml } from '../../html.js';
import { diffTable, layoutSwitch, type DiffLayout } from '../diff.js';
import { shortCommit, typeBadge, when } from '../format.js';

const STATUS = { added: 'new', modified: 'changed', removed: 'deleted' } as const;

function fileSection(orgId: string, cr: ChangeRequestDetailView, file: ChangeRequestFileView, layout: DiffLayout) {
  const name = file.title ?? file.path;
  // The artifact has a page on main while it is there: changed by an open request, or brought in by a merged one.
  const onMain = file.artifactId && (file.status === 'modified' || (file.status === 'added' && cr.state === 'merged'));
  return html`<section class="cr-file" aria-label="${name}">
  <h3>${file.type && isArtifactType(file.type) ? typeBadge(file.type) : ''} ${
    onMain ? html`<a href="/o/${orgId}/a/${file.artifactId}">${name}</a>` : name
  } <span class="badge status-${file.status}">${STATUS[file.status]}</span></h3>
  <p class="meta"><code>${file.path}</code></p>
  ${diffTable(file.diff, `Changes to ${name}`, layout)}
</section>`;
}

/** Every file the change request changes, as one diff in the chosen layout. */
export function combinedDiff(orgId: string, cr: ChangeRequestDetailView, layout: DiffLayout): SafeHtml {
  return html`<section class="panel" aria-labelledby="h-changes"><h2 id="h-changes">Changes <span class="count">${cr.files.length}</span></h2>
${
  cr.files.length === 0
    ? html`<p class="empty">Nothing changed yet: the branch is where it parted from main.</p>`
    : html`${layoutSwitch(`/o/${orgId}/cr/${cr.number}`, {}, layout)}${cr.files.map((file) => fileSection(orgId, cr, file, layout))}`
}
</section>`;
}

/** The branch's commits, oldest first, each by its own author. */
export function commitList(cr: ChangeRequestDetailView): SafeHtml {
  return html`<section class="panel" aria-labelledby="h-commits"><h2 id="h-commits">Commits <span class="count">${cr.commits.length}</span></h2>
${
  cr.commits.length === 0
    ? html`<p class="empty">No commits yet.</p>`
    : html`<ol class="cr-commits">${cr.commits.map(
        (c) =>
          html`<li><span class="subject">${c.subject}</span><br><span class="meta"><strong class="author">${c.author.name}</strong> · ${when(c.authoredAt)} · <span class="mono">${shortCommit(c.commit)}</span></span></li>`,
      )}</ol>`
}
</section>`;
}
