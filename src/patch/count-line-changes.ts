import { lineChanges } from './bounded-diff.js';

/**
 * Lines added and removed between two texts, with bounded work (see bounded-diff.ts). By
 * default counted the way unifiedDiff shows them (a line whose only change is CRLF versus LF is
 * not counted); with `stripTrailingCr: false`, as `git diff --stat` counts them.
 */
export function countLineChanges(before: string, after: string, stripTrailingCr = true): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const change of lineChanges(before, after, stripTrailingCr)) {
    if (change.added) added += change.count;
    if (change.removed) removed += change.count;
  }
  return { added, removed };
}
