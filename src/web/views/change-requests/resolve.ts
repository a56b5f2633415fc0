import type { MergeConflict } from '../../../errors.js';
import { html, type SafeHtml } from '../../html.js';
import { diffTable } from '../diff.js';
import { markdownEditor } from '../editor.js';

/** One conflicted file as the person resolves it: what each side did since the branch parted, and the text to keep. */
export interface ConflictToResolve {
  readonly conflict: MergeConflict;
  /** Unified diffs from where the branch parted to `main` now, and to the proposal. */
  readonly mainChange: string;
  readonly proposedChange: string;
  /** In the editor: the text with markers, or what the person sent when it was refused. */
  readonly text: string;
  readonly preview: SafeHtml;
}

export interface ResolveModel {
  readonly orgId: string;
  readonly number: number;
  readonly title: string;
  /** `main` as these conflicts were found: the resolutions are taken only while it is still there. */
  readonly mainCommit: string;
  readonly files: readonly ConflictToResolve[];
  readonly csrf: string;
  /** Why the last resolutions were not taken (main moved on, markers left, not a valid file). */
  readonly problem?: string;
}

function fileEditor(orgId: string, file: ConflictToResolve, index: number): SafeHtml {
  const { conflict } = file;
  const name = conflict.title ?? conflict.path;
  return html`<section class="panel cr-conflict" aria-labelledby="conflict-${index}">
  <h2 id="conflict-${index}">${name}</h2>
  <p class="meta"><code>${conflict.path}</code></p>
  <div class="conflict-changes">
    <section>${
      conflict.main === null
        ? html`<h3>Main deleted the file since the branch parted</h3>`
        : html`<h3>Change on main since the branch parted</h3>${diffTable(file.mainChange, `Change on main to ${name}`)}`
    }</section>
    <section>${
      conflict.proposed === null
        ? html`<h3>The proposal deletes the file</h3>`
        : html`<h3>Proposed change</h3>${diffTable(file.proposedChange, `Proposed change to ${name}`)}`
    }</section>
  </div>
  <input type="hidden" name="path-${index}" value="${conflict.path}">
  ${markdownEditor({
    orgId,
    wholeFile: true,
    id: `file-${index}`,
    name: `file-${index}`,
    previewId: `file-${index}-preview`,
    label: `Resolved ${name} (the whole file, its frontmatter included)`,
    text: file.text,
    preview: file.preview,
  })}
</section>`;
}

/**
 * The merge's conflicts in the editor, one per file: where main and the proposal changed the
 * same passage differently, main's text sits between `<<<<<<< main` and `=======`, the
 * proposal's between `=======` and `>>>>>>> proposed`. Nothing is merged until each is resolved.
 */
export function resolvePage(model: ResolveModel): SafeHtml {
  const base = `/o/${model.orgId}/cr/${model.number}`;
  const count = model.files.length;
  return html`<div class="page-head">
  <p class="eyebrow"><a href="${base}">← ${model.title} #${model.number}</a></p>
  <h1>Resolve conflicts</h1>
</div>
<div class="notice error" role="alert">
  <p><strong>Main and this change request both changed ${count === 1 ? 'a file' : `${count} files`} since they parted. Nothing was merged.</strong>${
    model.problem ? html` ${model.problem}` : ''
  }</p>
  <p>Where both changed the same passage, main's text sits between <code>&lt;&lt;&lt;&lt;&lt;&lt;&lt; main</code> and <code>=======</code>, the proposed text between <code>=======</code> and <code>&gt;&gt;&gt;&gt;&gt;&gt;&gt; proposed</code>. Keep what you want, remove the marker lines, and merge again. If main changes once more meanwhile, the conflicts are shown again.</p>
</div>
<form class="editor" method="post" action="${base}/merge">
  <input type="hidden" name="csrf" value="${model.csrf}">
  <input type="hidden" name="resolvedOn" value="${model.mainCommit}">
  ${model.files.map((file, i) => fileEditor(model.orgId, file, i))}
  <p class="form-actions"><button type="submit">Merge with these resolutions</button> <a class="button secondary" href="${base}">Cancel</a></p>
</form>`;
}
