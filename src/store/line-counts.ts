import { diffLines } from 'diff';

/** Lines added and removed between two versions of a body, as `git diff --stat` counts them. */
export function lineCounts(before: string, after: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const change of diffLines(before, after)) {
    if (change.added) added += change.count;
    else if (change.removed) removed += change.count;
  }
  return { added, removed };
}
