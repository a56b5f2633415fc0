import { checkPatchText } from './check-patch-text.js';
import { countLineChanges } from './count-line-changes.js';
import { joinDocument, splitDocument, type DocumentLines, type OutputLine } from './document-lines.js';
import { emptyHunk, numbered, overlap, tooManyHunks, unchangedHunk } from './failures.js';
import { LineIndex } from './line-index.js';
import { locateHunk, type Placement } from './locate-hunk.js';
import { readPatch } from './read-patch.js';

/**
 * Hunks one patch may hold. Real edits have a few; a 256 KiB patch of thousands of one-line
 * hunks is no edit a model means, and each hunk costs a search of the document.
 */
export const MAX_HUNKS = 1000;

export interface AppliedPatch {
  text: string;
  added: number;
  removed: number;
  hunks: number;
}

/**
 * Applies a unified diff written by a language model to a document, all hunks or none.
 * Throws PatchError (see failures.ts) instead of guessing: a hunk must change something
 * and land in exactly one place, and no two hunks may touch the same lines. A patch that would
 * add control characters or holds broken Unicode is InvalidInputError (check-patch-text.ts).
 */
export function applyPatch(original: string, patch: string): AppliedPatch {
  const hunks = readPatch(patch);
  if (hunks.length > MAX_HUNKS) throw tooManyHunks(hunks.length, MAX_HUNKS);
  checkPatchText(patch, hunks);
  const doc = splitDocument(original);
  for (const hunk of hunks) {
    if (!hunk.lines.some((line) => line.op !== ' ')) throw emptyHunk(hunk.number);
  }

  const index = new LineIndex(doc.texts);
  const placements = hunks.map((hunk) => locateHunk(hunk, index)).sort(byPosition);
  placements.forEach((placement, i) => {
    const previous = placements[i - 1];
    if (previous && placement.start < previous.start + previous.length) {
      const [first, second] = [previous.hunk.number, placement.hunk.number].sort((a, b) => a - b) as [number, number];
      const sharedEnd = Math.min(previous.start + previous.length, placement.start + placement.length);
      throw overlap(second, first, numbered(doc.texts, placement.start, Math.max(sharedEnd, placement.start + 1)));
    }
  });

  const output: OutputLine[] = [];
  let next = 0;
  for (const placement of placements) {
    output.push(...kept(doc, next, placement.start));
    const replacement = replace(doc, placement);
    const current = kept(doc, placement.start, placement.start + placement.length);
    if (sameTexts(replacement, current)) {
      throw unchangedHunk(
        placement.hunk.number,
        numbered(doc.texts, placement.start, placement.start + placement.length),
      );
    }
    output.push(...replacement);
    next = placement.start + placement.length;
  }
  output.push(...kept(doc, next, doc.texts.length));

  const text = joinDocument(output, doc);
  return { text, ...countLineChanges(original, text), hunks: hunks.length };
}

/** Context lines keep the document's own text, so whitespace-tolerant matches change only what the hunk marks. */
function replace(doc: DocumentLines, { hunk, start }: Placement): OutputLine[] {
  const lines: OutputLine[] = [];
  let at = start;
  for (const { op, text } of hunk.lines) {
    if (op === '+') {
      lines.push({ text });
    } else {
      if (op === ' ') lines.push({ text: doc.texts[at] ?? text, ending: doc.endings[at] });
      at++;
    }
  }
  return lines;
}

function sameTexts(a: OutputLine[], b: OutputLine[]): boolean {
  return a.length === b.length && a.every((line, i) => line.text === b[i]?.text);
}

function kept(doc: DocumentLines, from: number, to: number): OutputLine[] {
  return doc.texts.slice(from, to).map((text, i) => ({ text, ending: doc.endings[from + i] }));
}

/** Document order; an insertion goes before a hunk that starts at the same line. */
function byPosition(a: Placement, b: Placement): number {
  return a.start - b.start || a.length - b.length;
}
