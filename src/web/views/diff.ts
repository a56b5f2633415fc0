import { html, type SafeHtml } from '../html.js';

interface DiffRow {
  readonly kind: 'add' | 'del' | 'ctx' | 'hunk';
  readonly oldLine?: number;
  readonly newLine?: number;
  readonly text: string;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** Reads the unified diff the domain returns into numbered rows; file headers are dropped. */
function rows(diff: string): DiffRow[] {
  const out: DiffRow[] = [];
  let oldLine = 0;
  let newLine = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('---') || line.startsWith('+++') || line.startsWith('Index:') || line.startsWith('====')) continue;
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      out.push({ kind: 'hunk', text: line });
    } else if (line.startsWith('+')) {
      out.push({ kind: 'add', newLine: newLine++, text: line.slice(1) });
    } else if (line.startsWith('-')) {
      out.push({ kind: 'del', oldLine: oldLine++, text: line.slice(1) });
    } else if (line.startsWith(' ')) {
      out.push({ kind: 'ctx', oldLine: oldLine++, newLine: newLine++, text: line.slice(1) });
    }
  }
  return out;
}

const MARK = { add: '+', del: '−', ctx: ' ', hunk: '' } as const;
const LABEL = { add: 'added', del: 'removed', ctx: 'unchanged', hunk: 'section' } as const;

/** An inline diff: additions green, deletions red, with old and new line numbers. */
export function diffTable(diff: string, caption: string): SafeHtml {
  const list = rows(diff);
  if (!list.some((r) => r.kind === 'add' || r.kind === 'del')) {
    return html`<p class="empty">No differences in the document.</p>`;
  }
  return html`<div class="diff-wrap"><table class="diff">
<caption class="visually-hidden">${caption}</caption>
<thead class="visually-hidden"><tr><th scope="col">Old line</th><th scope="col">New line</th><th scope="col">Change</th><th scope="col">Text</th></tr></thead>
<tbody>${list.map((r) =>
    r.kind === 'hunk'
      ? html`<tr class="hunk"><td colspan="4">${r.text}</td></tr>`
      : html`<tr class="${r.kind}"><td class="ln">${r.oldLine ?? ''}</td><td class="ln">${r.newLine ?? ''}</td><td class="mark" aria-label="${LABEL[r.kind]}">${MARK[r.kind]}</td><td class="code">${r.text || ' '}</td></tr>`,
  )}</tbody>
</table></div>`;
}
