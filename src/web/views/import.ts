import type { FolderView, ImportReport } from '../../domain/types.js';
import { html, type SafeHtml } from '../html.js';
import { typeBadge } from './format.js';

const problemNotice = (problem: string | undefined): SafeHtml =>
  problem
    ? html`<div class="notice error" role="alert"><strong>Nothing was imported.</strong> ${problem}</div>`
    : html``;

/** Folders as `a / b / c`, so that two of one name are told apart. */
const folderLabel = (folder: FolderView, byId: ReadonlyMap<string, FolderView>): string => {
  const names = [folder.name];
  for (let up = folder.parentFolderId; up; up = byId.get(up)?.parentFolderId ?? null)
    names.unshift(byId.get(up)?.name ?? '…');
  return names.join(' / ');
};

/** Upload a folder or a zip archive of markdown, and pick where its pages go; nothing is written yet. */
export function importFormPage(
  orgId: string,
  folders: readonly FolderView[],
  csrf: string,
  problem?: string,
): SafeHtml {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const options = folders
    .map((f) => ({ id: f.id, label: folderLabel(f, byId) }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return html`<div class="page-head">
  <p class="eyebrow"><a href="/o/${orgId}">← Product</a></p>
  <h1>Import markdown</h1>
</div>
${problemNotice(problem)}
<p class="lede">Upload a folder of markdown files or a <code>.zip</code> of them. You see what each file becomes before anything is written. Links between the files become links between the pages; files with <code>type</code> and <code>parent</code> in their frontmatter join the product tree.</p>
<form class="import" method="post" action="/o/${orgId}/import" enctype="multipart/form-data">
  <input type="hidden" name="csrf" value="${csrf}">
  <p><label for="import-folder">A folder</label> <input id="import-folder" type="file" name="files" webkitdirectory multiple></p>
  <p><label for="import-zip">or a .zip archive</label> <input id="import-zip" type="file" name="zip" accept=".zip,application/zip"></p>
  <p><label for="import-target">Pages go into</label>
  <select id="import-target" name="folder"><option value="">the top level</option>${options.map((o) => html`<option value="${o.id}">${o.label}</option>`)}</select></p>
  <button type="submit">Check the files</button>
</form>
<section class="panel"><h2>Export</h2>
<p><a class="button secondary" href="/o/${orgId}/export">Download everything as .zip</a></p>
<p class="small muted">Markdown files with their links as relative paths, ready to import again. An artifact's or a folder's own page exports just that part.</p>
</section>`;
}

function reportTables(orgId: string, report: ImportReport): SafeHtml {
  return html`${
    report.imported.length
      ? html`<h2>${report.dryRun ? 'Files to import' : 'Imported'} (${report.imported.length})</h2>
<table class="import-files"><thead><tr><th scope="col">File</th><th scope="col">Becomes</th></tr></thead><tbody>${report.imported.map(
          (i) =>
            html`<tr><td><code>${i.path}</code></td><td>${typeBadge(i.type)} ${i.id ? html`<a href="/o/${orgId}/a/${i.id}">${i.title}</a>` : i.title}</td></tr>`,
        )}</tbody></table>`
      : ''
  }
${
  report.refused.length
    ? html`<h2>Refused (${report.refused.length})</h2><p class="small muted">Nothing of these is written.</p>
<ul class="import-refused">${report.refused.map((r) => html`<li><code>${r.path}</code>: ${r.reason}</li>`)}</ul>`
    : ''
}
${
  report.unresolvedLinks.length
    ? html`<h2>Links left as written</h2><p class="small muted">These point to files outside the upload, to images or other assets, or to names no file has.</p>
<ul class="import-links">${report.unresolvedLinks.map(
        (f) =>
          html`<li><code>${f.path}</code>: ${f.links.map((l, n) => html`${n ? ', ' : ''}<code>${l.target}</code> (${l.why})`)}</li>`,
      )}</ul>`
    : ''
}
${
  report.droppedFields.length
    ? html`<h2>Frontmatter not kept</h2>
<ul class="import-dropped">${report.droppedFields.map((f) => html`<li><code>${f.path}</code>: ${f.fields.join(', ')}</li>`)}</ul>`
    : ''
}
${report.skipped.length ? html`<p>${report.skipped.length} imported before, left as they are.</p>` : ''}`;
}

/** The dry run: what each file becomes, what is refused and why, and the go-ahead. */
export function importCheckPage(orgId: string, token: string, report: ImportReport, csrf: string): SafeHtml {
  return html`<div class="page-head">
  <p class="eyebrow"><a href="/o/${orgId}/import">← Import</a></p>
  <h1>Check the import</h1>
</div>
<p class="lede">${report.imported.length} files to import, ${report.folders} folders to make, ${report.linksRewritten} links to keep. Nothing is written until you import.</p>
${
  report.imported.length
    ? html`<form method="post" action="/o/${orgId}/import/${token}"><input type="hidden" name="csrf" value="${csrf}">
  <button type="submit">Import ${report.imported.length} files</button> <a class="button secondary" href="/o/${orgId}/import">Cancel</a></form>`
    : html`<p class="empty">There is nothing to import.</p>`
}
${reportTables(orgId, report)}`;
}

/** An import under way: the page reloads itself each second until it is done. */
export function importProgressPage(orgId: string, done: number, total: number): SafeHtml {
  return html`<meta http-equiv="refresh" content="1">
<div class="page-head"><h1>Importing…</h1></div>
<p><label for="import-progress">${done} of ${total} files</label></p>
<p><progress id="import-progress" value="${done}" max="${Math.max(total, 1)}">${done} of ${total}</progress></p>
<p class="small muted">You may leave this page; the import goes on.</p>`;
}

export function importResultPage(orgId: string, report: ImportReport): SafeHtml {
  return html`<div class="page-head">
  <p class="eyebrow"><a href="/o/${orgId}">← Product</a></p>
  <h1>Import done</h1>
</div>
<p class="lede" role="status">${report.imported.length} imported, ${report.refused.length} refused, ${report.skipped.length} skipped; ${report.linksRewritten} links kept.</p>
${reportTables(orgId, report)}`;
}
