import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import { coarsePatch, coarseSplit, exactDiffBudget } from './bounded-diff.js';

const CONTEXT = 3;

/**
 * A unified diff of one document for people and models to read, with `--- label` and
 * `+++ label` headers and three lines of context; empty when nothing changed. Carriage
 * returns are left out so a CRLF document reads like any other; applyPatch matches it
 * against either kind of document. The work is bounded (see bounded-diff.ts): a change too
 * large to diff line by line in time is shown as one replaced block.
 */
export function unifiedDiff(before: string, after: string, label: string): string {
  if (before === after) return '';
  const split = coarseSplit(before, after, true);
  const maxEditLength = exactDiffBudget(split);
  const exact =
    maxEditLength === undefined
      ? undefined
      : structuredPatch(label, label, before, after, undefined, undefined, {
          context: CONTEXT,
          stripTrailingCr: true,
          maxEditLength,
        });
  const patch = exact ?? coarsePatch(label, split, CONTEXT);
  const diff = formatPatch(patch, FILE_HEADERS_ONLY);
  return diff.includes('\n@@ ') ? diff : '';
}
