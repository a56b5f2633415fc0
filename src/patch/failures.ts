import { PatchError } from '../errors.js';

/**
 * Every way a patch fails, worded for the language model that wrote it: which hunk, why,
 * the current lines it should look at, and one sentence on how to fix the patch.
 */
export type NumberedLine = { line: number; text: string };

const MAX_SHOWN_LINES = 20;

export function notADiff(patch: string): PatchError {
  const what =
    patch.trim() === ''
      ? 'The patch is empty'
      : 'The patch is not a unified diff: it has no hunk header (a line starting with @@)';
  return new PatchError(
    `${what}. Send a unified diff: an "@@" line, then the unchanged context lines starting with a space, removed lines starting with "-" and added lines starting with "+".`,
    { reason: 'not_a_diff' },
  );
}

export function multipleFiles(targets: string[]): PatchError {
  return new PatchError(
    `The patch changes ${targets.length} different files (${targets.join(', ')}), but it is applied to one document. Send only the hunks for this document, under at most one "---"/"+++" header.`,
    { reason: 'multiple_files' },
  );
}

export function tooManyHunks(count: number, limit: number): PatchError {
  return new PatchError(
    `The patch has ${count} hunks; one edit applies at most ${limit}. Join neighbouring changes into larger hunks, or send the change as several edits.`,
    { reason: 'too_many_hunks' },
  );
}

export function tooCostly(hunk: number): PatchError {
  return new PatchError(
    `Hunk ${hunk} cannot be placed within the work one edit may take: the lines of the patch's hunks occur in too many places in the document. Give each hunk a context line that occurs rarely (a heading, a distinctive sentence), or send the change as several edits.`,
    { hunk, reason: 'too_costly' },
  );
}

export function emptyHunk(hunk: number): PatchError {
  return new PatchError(
    `Hunk ${hunk} changes nothing: it has no lines starting with "+" or "-". Mark the lines to remove with "-" and the lines to add with "+", or leave the hunk out.`,
    { hunk, reason: 'no_change' },
  );
}

export function unchangedHunk(hunk: number, current: NumberedLine[]): PatchError {
  return new PatchError(
    `Hunk ${hunk} changes nothing: its result is identical to the current ${span(current)}.\n${show(current)}\nMake sure the "+" lines differ from the "-" lines, or leave the hunk out.`,
    { hunk, reason: 'no_change', nearest: current },
  );
}

export function noMatch(
  hunk: number,
  nearest: NumberedLine[],
  difference?: { expected: string; found: NumberedLine },
): PatchError {
  const where = difference
    ? ` The closest place is at line ${difference.found.line}, where the hunk expects ${JSON.stringify(difference.expected)} but the document has ${JSON.stringify(difference.found.text)}.`
    : '';
  return new PatchError(
    `Hunk ${hunk} does not match the document: its context and removed lines were not found, not even ignoring trailing whitespace.${where}\nNearest current lines:\n${show(nearest)}\nRead the document again and copy the context and removed lines exactly.`,
    { hunk, reason: 'no_match', nearest },
  );
}

export function insertionOutOfRange(hunk: number, statedLine: number, nearest: NumberedLine[]): PatchError {
  return new PatchError(
    `Hunk ${hunk} only adds lines, at line ${statedLine}, but the document has ${nearest.at(-1)?.line ?? 0} lines.\nLast current lines:\n${show(nearest)}\nAdd the current line just before the insertion as a context line (starting with a space).`,
    { hunk, reason: 'no_match', nearest },
  );
}

export function ambiguous(hunk: number, starts: number[], nearest: NumberedLine[]): PatchError {
  return new PatchError(
    `Hunk ${hunk} matches ${starts.length} places in the document (starting at lines ${starts.join(', ')}), so it is unclear where it applies.\n${show(nearest)}\nAdd more unchanged context lines around the change so that the hunk matches only one place.`,
    { hunk, reason: 'ambiguous', nearest },
  );
}

export function unplacedInsertion(hunk: number): PatchError {
  return new PatchError(
    `Hunk ${hunk} only adds lines and has neither context lines nor a line number, so it is unclear where to insert them. Add the current lines just before or after the insertion as context lines (starting with a space).`,
    { hunk, reason: 'ambiguous' },
  );
}

export function overlap(hunk: number, other: number, shared: NumberedLine[]): PatchError {
  return new PatchError(
    `Hunk ${hunk} overlaps hunk ${other}: both apply to the current ${span(shared)}.\n${show(shared)}\nMerge the two hunks into one.`,
    { hunk, reason: 'overlap', nearest: shared },
  );
}

export function numbered(doc: readonly string[], from: number, to: number): NumberedLine[] {
  const first = Math.max(0, from);
  const last = Math.min(doc.length, to, first + MAX_SHOWN_LINES);
  return doc.slice(first, last).map((text, i) => ({ line: first + i + 1, text }));
}

function span(lines: NumberedLine[]): string {
  const first = lines[0]?.line;
  const last = lines.at(-1)?.line;
  if (first === undefined || last === undefined) return 'end of the document';
  return first === last ? `line ${first}` : `lines ${first}-${last}`;
}

function show(lines: NumberedLine[]): string {
  if (lines.length === 0) return '  (the document is empty)';
  const width = String(lines.at(-1)?.line ?? 0).length;
  return lines.map(({ line, text }) => `${String(line).padStart(width + 2)} | ${text}`).join('\n');
}
