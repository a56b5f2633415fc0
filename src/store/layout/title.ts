import { describeCharacter, findCharacter, isBidiControl, isC0Control, isSurrogate } from '../../characters.js';
import { DEFAULT_LIMITS } from '../../config/index.js';
import { InvalidInputError } from '../../errors.js';

export { headingTitle } from '../../artifacts/index.js';

/**
 * Line breaks (including the Unicode ones), tabs and other control characters, lone surrogates,
 * and bidirectional overrides and isolates (a title is also a commit subject; they would make
 * both read otherwise than they are).
 */
const notInTitle = (codePoint: number): boolean =>
  isC0Control(codePoint) ||
  (codePoint >= 0x7f && codePoint <= 0x9f) ||
  codePoint === 0x2028 ||
  codePoint === 0x2029 ||
  isSurrogate(codePoint) ||
  isBidiControl(codePoint);

/** Titles and folder names: trimmed, one line of plain text, non-empty, bounded. */
export function checkedTitle(raw: string, what = 'title', maxChars = DEFAULT_LIMITS.maxTitleChars): string {
  const title = raw.trim();
  if (!title) throw new InvalidInputError(`the ${what} is empty`);
  const found = findCharacter(title, notInTitle);
  if (found) {
    const leading = [...raw.slice(0, raw.length - raw.trimStart().length)].length;
    throw new InvalidInputError(
      `the ${what} has ${describeCharacter(found.codePoint)} at character ${leading + found.position}; it must be one line of text without control characters`,
      { codePoint: found.codePoint, position: leading + found.position },
    );
  }
  if (title.length > maxChars) {
    throw new InvalidInputError(`the ${what} is ${title.length} characters; the limit is ${maxChars}`);
  }
  return title;
}
