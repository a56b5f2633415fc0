import { diffWordsWithSpace } from 'diff';

export interface DiffRow {
  readonly kind: 'add' | 'del' | 'ctx' | 'hunk';
  readonly oldLine?: number;
  readonly newLine?: number;
  readonly text: string;
  /** For a changed line paired with its counterpart: the text cut into kept and changed words. */
  readonly words?: readonly WordPart[];
}

export interface WordPart {
  readonly text: string;
  readonly changed: boolean;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;
/** Longer line pairs are shown whole: the word diff's cost grows with the product of their lengths. */
const MAX_PAIR_CHARS = 2_000;
/** A diff with more changed pairs than this highlights only lines, not words. */
const MAX_PAIRS = 400;

/** Reads the unified diff the domain returns into numbered rows, the first `limit` of them; file headers are dropped. */
export function parseDiff(diff: string, limit = Infinity): DiffRow[] {
  const out: DiffRow[] = [];
  let oldLine = 0;
  let newLine = 0;
  for (const line of diff.split('\n')) {
    if (out.length >= limit) break;
    if (line.startsWith('---') || line.startsWith('+++') || line.startsWith('Index:') || line.startsWith('===='))
      continue;
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
  return withWordChanges(out);
}

/** A run of removed lines followed by added lines: the i-th removed line pairs with the i-th added. */
export function changeRuns(rows: readonly DiffRow[]): { start: number; dels: number; adds: number }[] {
  const runs: { start: number; dels: number; adds: number }[] = [];
  for (let i = 0; i < rows.length;) {
    if (rows[i]!.kind !== 'del' && rows[i]!.kind !== 'add') {
      i++;
      continue;
    }
    const start = i;
    while (rows[i]?.kind === 'del') i++;
    const dels = i - start;
    while (rows[i]?.kind === 'add') i++;
    runs.push({ start, dels, adds: i - start - dels });
  }
  return runs;
}

function withWordChanges(rows: DiffRow[]): DiffRow[] {
  let budget = MAX_PAIRS;
  for (const run of changeRuns(rows)) {
    for (let k = 0; k < Math.min(run.dels, run.adds) && budget > 0; k++, budget--) {
      const del = rows[run.start + k]!;
      const add = rows[run.start + run.dels + k]!;
      if (del.text.length + add.text.length > MAX_PAIR_CHARS) continue;
      const parts = diffWordsWithSpace(del.text, add.text);
      rows[run.start + k] = {
        ...del,
        words: parts.filter((p) => !p.added).map((p) => ({ text: p.value, changed: Boolean(p.removed) })),
      };
      rows[run.start + run.dels + k] = {
        ...add,
        words: parts.filter((p) => !p.removed).map((p) => ({ text: p.value, changed: Boolean(p.added) })),
      };
    }
  }
  return rows;
}
