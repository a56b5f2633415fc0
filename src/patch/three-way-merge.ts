import { diff3Merge } from 'node-diff3';
import { ConflictError } from '../errors.js';

/** Lines with their terminators, so that joining them gives the text back byte for byte. */
const linesOf = (text: string): string[] => text.split(/(?<=\n)/);

const mergeBlocks = (input: { ours: string; base: string; theirs: string }) =>
  diff3Merge(linesOf(input.ours), linesOf(input.base), linesOf(input.theirs), { excludeFalseConflicts: true });

/**
 * Carries the change base -> theirs over to ours, as `git revert` and `git merge` do: lines
 * that only one side changed take that side; lines both sides changed differently are a
 * conflict, and nothing is guessed. Line numbers play no part, so repeated passages in the
 * document are never a problem.
 */
export function threeWayMerge(input: { ours: string; base: string; theirs: string }): string {
  const blocks = mergeBlocks(input);
  const conflicts = blocks.filter((block) => block.conflict).length;
  if (conflicts > 0) {
    throw new ConflictError(
      `${conflicts} passage${conflicts === 1 ? '' : 's'} changed again since; the change cannot be carried over without guessing`,
      { conflicts },
    );
  }
  return blocks.map((block) => block.ok?.join('') ?? '').join('');
}

/** Marker lines of a conflicted passage, as Git writes them, with the labels of both sides. */
export const conflictMarkers = (oursLabel: string, theirsLabel: string) =>
  ({ start: `<<<<<<< ${oursLabel}`, middle: '=======', end: `>>>>>>> ${theirsLabel}` }) as const;

const terminated = (lines: readonly string[]): string => {
  const text = lines.join('');
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
};

/**
 * The merge with every conflicted passage written out between Git-style markers, for a person
 * to resolve by hand; the passages both sides agree on are merged as threeWayMerge does.
 */
export function mergeWithMarkers(
  input: { ours: string; base: string; theirs: string },
  labels: { ours: string; theirs: string },
): { text: string; conflicts: number } {
  const markers = conflictMarkers(labels.ours, labels.theirs);
  let conflicts = 0;
  const text = mergeBlocks(input)
    .map((block) => {
      if (!block.conflict) return block.ok?.join('') ?? '';
      conflicts++;
      return `${markers.start}\n${terminated(block.conflict.a)}${markers.middle}\n${terminated(block.conflict.b)}${markers.end}\n`;
    })
    .join('');
  return { text, conflicts };
}
