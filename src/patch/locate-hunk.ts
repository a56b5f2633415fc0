import { closestRegion } from './closest-region.js';
import { ambiguous, insertionOutOfRange, noMatch, numbered, tooCostly, unplacedInsertion } from './failures.js';
import type { LineIndex } from './line-index.js';
import type { Hunk } from './read-patch.js';

/** Where a hunk replaces document lines: 0-based start, and how many lines it covers. */
export interface Placement {
  hunk: Hunk;
  start: number;
  length: number;
}

const MAX_SHOWN_MATCHES = 3;

/**
 * Line endings are no tier of their own: documents are split with their terminators kept
 * apart (see document-lines.ts), so CRLF and LF lines already compare equal in both tiers.
 */
const TIERS = ['exact', 'trimmed'] as const;
type Tier = (typeof TIERS)[number];
const SAME: Record<Tier, (patchLine: string, docLine: string) => boolean> = {
  exact: (patchLine, docLine) => patchLine === docLine,
  trimmed: (patchLine, docLine) => patchLine.trimEnd() === docLine.trimEnd(),
};

/**
 * Finds the one place a hunk applies, by its context and removed lines; the line numbers in
 * its header are only used for insertions without context. The `diff` package's own
 * `applyPatch` takes the fit nearest the stated line (optionally with fuzz), so a hunk that fits
 * two places or a wrong line number would silently land in the wrong one. Here each hunk is
 * located in the whole original document and must match exactly one place in the strictest
 * tier where it matches at all.
 */
export function locateHunk(hunk: Hunk, index: LineIndex): Placement {
  const doc = index.lines;
  const wanted = hunk.lines.filter((line) => line.op !== '+').map((line) => line.text);
  if (wanted.length === 0) return { hunk, start: insertionPoint(hunk, doc), length: 0 };

  for (const tier of TIERS) {
    const starts = matches(index, wanted, tier);
    if (!starts) throw tooCostly(hunk.number);
    const [start] = starts;
    if (start !== undefined && starts.length === 1) return { hunk, start, length: wanted.length };
    if (starts.length > 1) {
      const shown = starts.slice(0, MAX_SHOWN_MATCHES).flatMap((at) => numbered(doc, at, at + wanted.length));
      throw ambiguous(
        hunk.number,
        starts.map((at) => at + 1),
        shown,
      );
    }
  }

  const start = closestRegion(doc, wanted, hunk.statedStart);
  const differs = wanted.findIndex((text, i) => text.trimEnd() !== doc[start + i]?.trimEnd());
  const found = numbered(doc, start + differs, start + differs + 1)[0];
  const expected = wanted[differs];
  throw noMatch(
    hunk.number,
    numbered(doc, start - 1, start + wanted.length + 1),
    found && expected !== undefined ? { expected, found } : undefined,
  );
}

/**
 * Every start where all of `wanted` matches, in document order. Only the places where the
 * hunk's rarest line occurs are tried: the work is that line's count times the hunk's length,
 * not the document's length, for each hunk. Undefined when the patch's budget of comparisons
 * runs out.
 */
function matches(index: LineIndex, wanted: string[], tier: Tier): number[] | undefined {
  const doc = index.lines;
  const same = SAME[tier];
  let anchor = 0;
  let candidates = index.at(wanted[0] ?? '', tier);
  for (let i = 1; i < wanted.length && candidates.length > 1; i++) {
    const at = index.at(wanted[i] ?? '', tier);
    if (at.length < candidates.length) [anchor, candidates] = [i, at];
  }
  if (!index.spend(wanted.length)) return undefined;
  const starts: number[] = [];
  for (const position of candidates) {
    const start = position - anchor;
    if (start < 0 || start + wanted.length > doc.length) continue;
    let i = 0;
    while (i < wanted.length && same(wanted[i] ?? '', doc[start + i] ?? '')) i++;
    if (!index.spend(i + 1)) return undefined;
    if (i === wanted.length) starts.push(start);
  }
  return starts;
}

/**
 * An insertion without context can only go where its header says: `@@ -5,0 +6,2 @@` means
 * after line 5 (count 0, the unified-diff convention), `@@ -6 +6,2 @@` means the new lines
 * start at line 6. An empty document has only one place.
 */
function insertionPoint(hunk: Hunk, doc: readonly string[]): number {
  if (doc.length === 0) return 0;
  if (hunk.statedStart === undefined) throw unplacedInsertion(hunk.number);
  const point = hunk.statedCount === 0 ? hunk.statedStart : Math.max(0, hunk.statedStart - 1);
  if (point > doc.length)
    throw insertionOutOfRange(hunk.number, hunk.statedStart, numbered(doc, doc.length - 3, doc.length));
  return point;
}
