import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../src/errors.js';
import { checkDocumentText } from '../../../src/patch/index.js';

function refusal(before: string, after: string): InvalidInputError {
  try {
    checkDocumentText(before, after);
  } catch (error) {
    if (error instanceof InvalidInputError) return error;
    throw error;
  }
  throw new Error('the document was accepted');
}

describe('characters a whole new document may not hold', () => {
  it('names the character, its line and column, as the patch rule does', () => {
    const error = refusal('', '# Title\n\nsome \u001b[31mred\n');
    expect(error.message).toBe(
      'The document has a control character (U+001B ESC) at line 3, column 6. A document is plain text: remove control characters (tab is allowed).',
    );
    expect(error.data).toEqual({ line: 3, column: 6, codePoint: 0x1b });
  });

  it.each([
    ['NUL', 'a\u0000b', /\(U\+0000 NUL\) at line 2, column 2/],
    ['BEL', 'ding\u0007', /\(U\+0007 BEL\) at line 2, column 5/],
    ['a lone CR', 'one\rtwo', /a line break \(U\+000D CR\) that is not part of a line ending at line 2, column 4/],
    [
      'a lone surrogate',
      'half \ud800',
      /lone surrogate \(U\+D800, half of a UTF-16 pair\) at line 2, column 6: it is not valid Unicode text/,
    ],
  ])('%s', (_name, line, expected) => {
    expect(refusal('# T\n', `# T\n${line}\n`).message).toMatch(expected);
  });

  it('tab, CRLF line endings and whole emoji are text', () => {
    expect(() => checkDocumentText('', '# T\r\n\tindented \u{1F600}\r\n')).not.toThrow();
  });

  it('leaves alone a line the document already had, and refuses it brought back', () => {
    const legacy = '# T\n\nold\u0007line\n';
    expect(() => checkDocumentText(legacy, `${legacy}more\n`)).not.toThrow();
    expect(() => checkDocumentText('# T\n', legacy)).toThrow(/\(U\+0007 BEL\) at line 3, column 4/);
  });
});
