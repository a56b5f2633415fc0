import { diffLines } from 'diff';
import { coarseSplit, exactDiffBudget } from './bounded-diff.js';

/**
 * Where each line of `after` comes from in `before`: the index of the line it was kept as, or -1
 * for a line added or changed, by the exact line diff the history shows. Undefined when the exact
 * diff is not affordable (see bounded-diff.ts): the coarse one would count every line of a
 * rewritten middle as new, also those kept in it.
 */
export function lineOrigins(before: string, after: string): Int32Array | undefined {
  const split = coarseSplit(before, after, false);
  const maxEditLength = exactDiffBudget(split);
  if (maxEditLength === undefined) return undefined;
  const changes = diffLines(before, after, { maxEditLength });
  if (!changes) return undefined;
  const origins = new Int32Array(split.new.length);
  let from = 0;
  let to = 0;
  for (const change of changes) {
    const count = change.count;
    if (change.removed) {
      from += count;
      continue;
    }
    for (let i = 0; i < count; i++) origins[to + i] = change.added ? -1 : from + i;
    to += count;
    if (!change.added) from += count;
  }
  return origins;
}
