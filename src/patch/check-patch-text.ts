import { describeCharacter, findCharacter, isDocumentControl, isSurrogate } from '../characters.js';
import { InvalidInputError } from '../errors.js';
import type { Hunk } from './read-patch.js';

/**
 * Control characters a patch may not add (isDocumentControl: tab is text). Line breaks cannot
 * appear inside a line except a CR on its own: lines are split at LF and CRLF (the engine's
 * line-ending tolerance), so a CR that is left inside a line is not part of a line ending and
 * is refused like the rest.
 *
 * Anything in the patch that is not valid Unicode text (lone surrogates, which no UTF-8 file can
 * hold), and control characters in its added lines. Runs before any hunk is placed, so the
 * refusal is about the patch alone and nothing is written.
 */
export function checkPatchText(patch: string, hunks: readonly Hunk[]): void {
  if (/[\ud800-\udfff]/.test(patch)) {
    patch.split(/\r?\n/).forEach((line, index) => {
      const found = findCharacter(line, isSurrogate);
      if (found) {
        throw new InvalidInputError(
          `The patch has ${describeCharacter(found.codePoint)} at line ${index + 1}, column ${found.position}: it is not valid Unicode text. Check how the text was escaped and send the whole character.`,
          { patchLine: index + 1, column: found.position, codePoint: found.codePoint },
        );
      }
    });
  }
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.op !== '+') continue;
      const found = findCharacter(line.text, isDocumentControl);
      if (!found) continue;
      // The column counts the leading "+" as the line's first character.
      const column = found.position + 1;
      const extra = found.codePoint === 0x0d ? ' that is not part of a line ending' : '';
      throw new InvalidInputError(
        `Hunk ${hunk.number} adds ${describeCharacter(found.codePoint)}${extra} at line ${line.patchLine}, column ${column} of the patch. A document is plain text: remove control characters from the "+" lines (tab is allowed).`,
        { hunk: hunk.number, patchLine: line.patchLine, column, codePoint: found.codePoint },
      );
    }
  }
}
