import { diffLines } from 'diff';

/**
 * Lines added and removed between two texts, counted the way unifiedDiff shows them
 * (a line whose only change is CRLF versus LF is not counted).
 */
export function countLineChanges(before: string, after: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const change of diffLines(before, after, { stripTrailingCr: true })) {
    if (change.added) added += change.count;
    if (change.removed) removed += change.count;
  }
  return { added, removed };
}
