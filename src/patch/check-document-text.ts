import { describeCharacter, findCharacter, isDocumentControl, isSurrogate } from '../characters.js';
import { InvalidInputError } from '../errors.js';

/** Cheap first look: a C0 control other than tab, LF and CR, a CR not before LF, or a surrogate. */
const SUSPECT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff]|\r(?!\n)/;

const refused = (codePoint: number): boolean => isDocumentControl(codePoint) || isSurrogate(codePoint);

/**
 * The rule a patch's "+" lines follow (check-patch-text.ts), for a whole new document: no
 * control characters but tab (a CR only as part of a CRLF line ending) and no lone surrogates,
 * in any line the document did not already have. Lines it had are left alone, so a document
 * written before the rule can still be edited elsewhere; one that brings such a line back (a
 * restore, a revert) is refused like any other. The refusal names the character, its line and
 * column in the new document; nothing is written.
 */
export function checkDocumentText(before: string, after: string): void {
  if (!SUSPECT.test(after)) return;
  const kept = new Set(before.split(/\r?\n/));
  after.split(/\r?\n/).forEach((line, index) => {
    if (!SUSPECT.test(line) || kept.has(line)) return;
    const found = findCharacter(line, refused);
    if (!found) return;
    const where = `at line ${index + 1}, column ${found.position}`;
    const data = { line: index + 1, column: found.position, codePoint: found.codePoint };
    if (isSurrogate(found.codePoint)) {
      throw new InvalidInputError(
        `The document has ${describeCharacter(found.codePoint)} ${where}: it is not valid Unicode text. Check how the text was escaped and send the whole character.`,
        data,
      );
    }
    const extra = found.codePoint === 0x0d ? ' that is not part of a line ending' : '';
    throw new InvalidInputError(
      `The document has ${describeCharacter(found.codePoint)}${extra} ${where}. A document is plain text: remove control characters (tab is allowed).`,
      data,
    );
  });
}
