import { diff3Merge } from 'node-diff3';
import { ConflictError } from '../errors.js';

/** Lines with their terminators, so that joining them gives the text back byte for byte. */
const linesOf = (text: string): string[] => text.split(/(?<=\n)/);

/**
 * Carries the change base -> theirs over to ours, as `git revert` and `git merge` do: lines
 * that only one side changed take that side; lines both sides changed differently are a
 * conflict, and nothing is guessed. Line numbers play no part, so repeated passages in the
 * document are never a problem.
 */
export function threeWayMerge(input: { ours: string; base: string; theirs: string }): string {
  const blocks = diff3Merge(linesOf(input.ours), linesOf(input.base), linesOf(input.theirs), { excludeFalseConflicts: true });
  const conflicts = blocks.filter((block) => block.conflict).length;
  if (conflicts > 0) {
    throw new ConflictError(
      `${conflicts} passage${conflicts === 1 ? '' : 's'} changed again since; the change cannot be carried over without guessing`,
      { conflicts },
    );
  }
  return blocks.map((block) => block.ok?.join('') ?? '').join('');
}
