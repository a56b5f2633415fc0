import { diffLines, type ChangeObject, type StructuredPatch, type StructuredPatchHunk } from 'diff';

/**
 * Myers' diff costs about (lines of both texts) x (edit distance) steps: a one-line edit of a
 * 1 MiB document is instant, a complete rewrite of it would hold the event loop for minutes.
 * The `diff` package stops once the edit distance passes `maxEditLength`; past this much work
 * the change is shown as what it is, the differing middle replaced, framed by the common lines.
 * A failed attempt pays the limit in full, on the event loop (4,000,000 steps took 45 ms on a
 * 2-core machine), so a change that surely needs more is not tried; 2,000,000 still diff exactly
 * 1,000 changed lines of a 1,000-line document, or 90 of a 1 MiB one.
 */
const DIFF_WORK_LIMIT = 2_000_000;
const MIN_EDIT_LENGTH = 64;

/** Lines with their terminators, as the `diff` package tokenizes them. */
const splitLines = (text: string, stripTrailingCr: boolean): string[] => {
  const source = stripTrailingCr ? text.replace(/\r\n/g, '\n') : text;
  return source.match(/[^\n]*\n|[^\n]+$/g) ?? [];
};

/** Two texts cut into lines, as every diff here starts: computed once per diff. */
export interface CoarseSplit {
  readonly old: string[];
  readonly new: string[];
  /** Lines equal at the start, and at the end (not overlapping the start). */
  readonly prefix: number;
  readonly suffix: number;
}

export function coarseSplit(before: string, after: string, stripTrailingCr: boolean): CoarseSplit {
  const old = splitLines(before, stripTrailingCr);
  const next = splitLines(after, stripTrailingCr);
  let prefix = 0;
  while (prefix < old.length && prefix < next.length && old[prefix] === next[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < old.length - prefix &&
    suffix < next.length - prefix &&
    old[old.length - 1 - suffix] === next[next.length - 1 - suffix]
  ) {
    suffix++;
  }
  return { old, new: next, prefix, suffix };
}

/**
 * A lower bound of the edit distance Myers' diff counts (lines removed plus lines added): a line
 * of the differing middles can be kept at most as often as both of them hold it.
 */
function editDistanceAtLeast({ old, new: next, prefix, suffix }: CoarseSplit): number {
  const unmatched = new Map<string, number>();
  for (let i = prefix; i < old.length - suffix; i++) unmatched.set(old[i]!, (unmatched.get(old[i]!) ?? 0) + 1);
  let kept = 0;
  for (let i = prefix; i < next.length - suffix; i++) {
    const left = unmatched.get(next[i]!);
    if (!left) continue;
    unmatched.set(next[i]!, left - 1);
    kept++;
  }
  return old.length + next.length - 2 * (prefix + suffix + kept);
}

/**
 * The edit length an exact diff may reach (`maxEditLength`), or undefined when it cannot succeed
 * within the budget: a change that surely needs more is not tried, since a failed attempt spends
 * the whole budget before the coarse diff takes over.
 */
export function exactDiffBudget(split: CoarseSplit): number | undefined {
  const budget = Math.max(MIN_EDIT_LENGTH, Math.floor(DIFF_WORK_LIMIT / (split.old.length + split.new.length + 2)));
  return editDistanceAtLeast(split) > budget ? undefined : budget;
}

/** The line changes between two texts, exact when affordable and coarse (one replaced block) otherwise. */
export function lineChanges(before: string, after: string, stripTrailingCr: boolean): ChangeObject<string>[] {
  const split = coarseSplit(before, after, stripTrailingCr);
  const maxEditLength = exactDiffBudget(split);
  const exact = maxEditLength === undefined ? undefined : diffLines(before, after, { stripTrailingCr, maxEditLength });
  if (exact) return exact;
  const { old, new: next, prefix, suffix } = split;
  const block = (lines: string[], kind: { added: boolean; removed: boolean }): ChangeObject<string>[] =>
    lines.length ? [{ value: lines.join(''), count: lines.length, ...kind }] : [];
  const same = { added: false, removed: false };
  return [
    ...block(old.slice(0, prefix), same),
    ...block(old.slice(prefix, old.length - suffix), { added: false, removed: true }),
    ...block(next.slice(prefix, next.length - suffix), { added: true, removed: false }),
    ...block(old.slice(old.length - suffix), same),
  ];
}

/**
 * One hunk replacing the differing middle, with `context` common lines around it, as
 * `structuredPatch` shapes hunks; `split` is of the two texts without carriage returns.
 */
export function coarsePatch(label: string, split: CoarseSplit, context: number): StructuredPatch {
  const { old, new: next, prefix, suffix } = split;
  const from = Math.max(0, prefix - context);
  const oldEnd = Math.min(old.length, old.length - suffix + context);
  const newEnd = Math.min(next.length, next.length - suffix + context);
  const lines: string[] = [];
  const push = (mark: string, line: string) => {
    lines.push(mark + line.replace(/\n$/, ''));
    if (!line.endsWith('\n')) lines.push('\\ No newline at end of file');
  };
  for (const line of old.slice(from, prefix)) push(' ', line);
  for (const line of old.slice(prefix, old.length - suffix)) push('-', line);
  for (const line of next.slice(prefix, next.length - suffix)) push('+', line);
  for (const line of old.slice(old.length - suffix, oldEnd)) push(' ', line);
  const oldLines = oldEnd - from;
  const newLines = newEnd - from;
  const hunk: StructuredPatchHunk = {
    oldStart: oldLines ? from + 1 : from,
    oldLines,
    newStart: newLines ? from + 1 : from,
    newLines,
    lines,
  };
  return { oldFileName: label, newFileName: label, oldHeader: undefined, newHeader: undefined, hunks: [hunk] };
}
