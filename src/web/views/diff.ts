import { html, type SafeHtml } from '../html.js';
import { changeRuns, parseDiff, type DiffRow } from './diff-rows.js';

export type DiffLayout = 'inline' | 'split';

const MARK = { add: '+', del: '−', ctx: ' ', hunk: '' } as const;
const LABEL = { add: 'added', del: 'removed', ctx: 'unchanged', hunk: 'section' } as const;

/** A changed line's text, its changed words marked (`<ins>` in added lines, `<del>` in removed). */
function lineText(row: DiffRow | undefined): SafeHtml {
  if (!row) return html``;
  if (!row.words) return html`${row.text || ' '}`;
  return html`${row.words.map((w) => (w.changed ? (row.kind === 'add' ? html`<ins>${w.text}</ins>` : html`<del>${w.text}</del>`) : w.text))}`;
}

function inlineRows(list: readonly DiffRow[]): SafeHtml[] {
  return list.map((r) =>
    r.kind === 'hunk'
      ? html`<tr class="hunk"><td colspan="4">${r.text}</td></tr>`
      : html`<tr class="${r.kind}"><td class="ln">${r.oldLine ?? ''}</td><td class="ln">${r.newLine ?? ''}</td><td class="mark" aria-label="${LABEL[r.kind]}">${MARK[r.kind]}</td><td class="code">${lineText(r)}</td></tr>`,
  );
}

/** Old on the left, new on the right: a removed line faces the added line that replaced it. */
function splitRows(list: readonly DiffRow[]): SafeHtml[] {
  const out: SafeHtml[] = [];
  const side = (r: DiffRow | undefined, which: 'old' | 'new') =>
    r
      ? html`<td class="ln">${which === 'old' ? r.oldLine : r.newLine}</td><td class="code ${r.kind}" aria-label="${LABEL[r.kind]}">${lineText(r)}</td>`
      : html`<td class="ln"></td><td class="code blank"></td>`;
  const runs = new Map(changeRuns(list).map((run) => [run.start, run]));
  for (let i = 0; i < list.length;) {
    const r = list[i]!;
    const run = runs.get(i);
    if (run) {
      for (let k = 0; k < Math.max(run.dels, run.adds); k++) {
        const del = k < run.dels ? list[run.start + k] : undefined;
        const add = k < run.adds ? list[run.start + run.dels + k] : undefined;
        out.push(html`<tr>${side(del, 'old')}${side(add, 'new')}</tr>`);
      }
      i += run.dels + run.adds;
    } else {
      out.push(
        r.kind === 'hunk'
          ? html`<tr class="hunk"><td colspan="4">${r.text}</td></tr>`
          : html`<tr class="ctx">${side(r, 'old')}${side(r, 'new')}</tr>`,
      );
      i++;
    }
  }
  return out;
}

/**
 * Rows a diff page shows at most: past this a page is megabytes of HTML that takes the server
 * and the browser a long time to build, and nobody reads it line by line.
 */
const MAX_SHOWN_ROWS = 1_500;

/** A diff with changed words highlighted: inline (one column) or split (old beside new). */
export function diffTable(diff: string, caption: string, layout: DiffLayout = 'inline'): SafeHtml {
  const list = parseDiff(diff, MAX_SHOWN_ROWS + 1);
  if (!list.some((r) => r.kind === 'add' || r.kind === 'del')) {
    return html`<p class="empty">No differences in the document.</p>`;
  }
  const cut =
    list.length > MAX_SHOWN_ROWS
      ? html`<p class="notice">This change is too large to show in full: only its first ${MAX_SHOWN_ROWS} diff lines are shown. The whole diff is in the organization's Git repository (<code>git show</code> on a clone).</p>`
      : html``;
  return html`${table(list.slice(0, MAX_SHOWN_ROWS), caption, layout)}${cut}`;
}

function table(list: readonly DiffRow[], caption: string, layout: DiffLayout): SafeHtml {
  if (layout === 'split') {
    return html`<div class="diff-wrap"><table class="diff split">
<caption class="visually-hidden">${caption}</caption>
<colgroup><col class="ln-col"><col><col class="ln-col"><col></colgroup>
<thead class="visually-hidden"><tr><th scope="col">Old line</th><th scope="col">Old text</th><th scope="col">New line</th><th scope="col">New text</th></tr></thead>
<tbody>${splitRows(list)}</tbody>
</table></div>`;
  }
  return html`<div class="diff-wrap"><table class="diff">
<caption class="visually-hidden">${caption}</caption>
<thead class="visually-hidden"><tr><th scope="col">Old line</th><th scope="col">New line</th><th scope="col">Change</th><th scope="col">Text</th></tr></thead>
<tbody>${inlineRows(list)}</tbody>
</table></div>`;
}

/** Links that switch a diff page between the two layouts, keeping its other parameters. */
export function layoutSwitch(path: string, params: Record<string, string>, current: DiffLayout): SafeHtml {
  const href = (layout: DiffLayout) => `${path}?${new URLSearchParams({ ...params, view: layout }).toString()}`;
  const item = (layout: DiffLayout, label: string) =>
    layout === current
      ? html`<span class="seg" aria-current="true">${label}</span>`
      : html`<a class="seg" href="${href(layout)}">${label}</a>`;
  return html`<nav class="segmented" aria-label="Diff layout">${item('inline', 'Inline')}${item('split', 'Side by side')}</nav>`;
}

export const diffLayoutParam = (value: unknown): DiffLayout => (value === 'split' ? 'split' : 'inline');
