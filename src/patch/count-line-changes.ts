import { lineChanges } from './bounded-diff.js';

/**
 * Lines added and removed between two texts, with bounded work (see bounded-diff.ts). By
 * default counted the way unifiedDiff shows them (a line whose only change is CRLF versus LF is
 * not counted); with `stripTrailingCr: false`, as `git diff --stat` counts them.
 */
export function countLineChanges(
  before: string,
  after: string,
  stripTrailingCr = true,
): { added: number; removed: number } {
  // A file created or emptied: every line of the other side, without running a diff (a cold
  // start counts the lines of every artifact's first version).
  if (before === '' || after === '') return { added: lineCount(after), removed: lineCount(before) };
  let added = 0;
  let removed = 0;
  for (const change of lineChanges(before, after, stripTrailingCr)) {
    if (change.added) added += change.count;
    if (change.removed) removed += change.count;
  }
  return { added, removed };
}

/** Lines as the diff tokenizes them: each ends with a newline, but the last may not. */
function lineCount(text: string): number {
  let lines = text.length > 0 && !text.endsWith('\n') ? 1 : 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}
