import type { ArtifactView, Crumb, EditConflict } from '../../domain/types.js';
import { html, type SafeHtml } from '../html.js';
import { breadcrumb } from './artifact.js';
import { diffTable } from './diff.js';
import { typeName } from './format.js';

export interface EditorState {
  /** The text in the textarea: the stored body, or what the person typed when a save failed. */
  readonly text: string;
  /** The version the text was written against; the save is guarded by it. */
  readonly baseVersion: string;
  readonly summary: string;
  readonly problem?: string;
  readonly conflict?: EditConflict;
}

function conflictPanel(conflict: EditConflict): SafeHtml {
  return html`<div class="notice error" role="alert">
  <p><strong>Someone changed this document while you were editing. Nothing was written.</strong></p>
  <p>Both changes are in the editor below. Where you both changed the same passage, your text sits between
  <code>&lt;&lt;&lt;&lt;&lt;&lt;&lt; your edit</code> and <code>=======</code>, the current text between
  <code>=======</code> and <code>&gt;&gt;&gt;&gt;&gt;&gt;&gt; current version</code>. Keep what you want, remove the marker lines, and save again.</p>
</div>
<div class="conflict-changes">
  <section class="panel"><h2>Their change since you opened the editor</h2>${diffTable(conflict.theirChange, 'Their change')}</section>
  <section class="panel"><h2>Your change</h2>${diffTable(conflict.yourChange, 'Your change')}</section>
</div>`;
}

/** One text to edit: markdown on the left, its rendering on the right (below on narrow screens), kept live by app.js. */
export function markdownEditor(field: {
  readonly orgId: string;
  /** A whole repository file: its preview leaves out the frontmatter. */
  readonly wholeFile?: boolean;
  /** The textarea's id and name, and the id of the preview beside it. */
  readonly id: string;
  readonly name: string;
  readonly previewId: string;
  readonly label: string;
  readonly text: string;
  readonly preview: SafeHtml;
}): SafeHtml {
  const preview = field.previewId;
  return html`<div class="editor-split">
    <div class="editor-pane">
      <label for="${field.id}">${field.label}</label>
      <textarea id="${field.id}" name="${field.name}" spellcheck="true" data-preview-url="/o/${field.orgId}/preview${field.wholeFile ? '?frontmatter=skip' : ''}" data-preview-target="${preview}">${field.text}</textarea>
    </div>
    <div class="editor-pane">
      <p class="pane-label" id="${preview}-label">Preview</p>
      <div id="${preview}" class="doc markdown editor-preview" role="region" aria-labelledby="${preview}-label" aria-live="polite" tabindex="0">${field.preview}</div>
    </div>
  </div>`;
}

/** The artifact editor: its markdown editor, a summary of the change, and the save guarded by the version it opened. */
export function editorPage(
  orgId: string,
  artifact: ArtifactView,
  crumbs: readonly Crumb[],
  state: EditorState,
  csrf: string,
  preview: SafeHtml,
): SafeHtml {
  const b = `/o/${orgId}/a/${artifact.id}`;
  return html`${breadcrumb(orgId, crumbs, { label: artifact.title, id: artifact.id })}
<div class="page-head">
  <p class="eyebrow"><a href="${b}">← ${artifact.title}</a></p>
  <h1>Edit ${typeName(artifact.type).toLowerCase()}</h1>
  <p class="lede">The first <code># heading</code> is the title. Saving makes one change in the history, in your name.</p>
</div>
${state.conflict ? conflictPanel(state.conflict) : ''}
${state.problem && !state.conflict ? html`<div class="notice error" role="alert"><strong>Nothing was written.</strong> ${state.problem}</div>` : ''}
<form class="editor" method="post" action="${b}/edit">
  <input type="hidden" name="csrf" value="${csrf}">
  <input type="hidden" name="baseVersion" value="${state.baseVersion}">
  ${markdownEditor({ orgId, id: 'body', name: 'body', previewId: 'preview', label: 'Markdown', text: state.text, preview })}
  <p class="summary-field"><label for="summary">Describe your change <span class="optional">(optional)</span></label>
  <input id="summary" name="summary" maxlength="200" value="${state.summary}" placeholder="Fixed a typo in the rationale"></p>
  <p class="form-actions"><button type="submit">Save changes</button> <a class="button secondary" href="${b}">Cancel</a></p>
</form>`;
}
