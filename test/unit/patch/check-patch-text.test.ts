import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../src/errors.js';
import { applyPatch } from '../../../src/patch/index.js';

const doc = '# Title\n\n## Notes\n\nold\n';

function refusal(patch: string): InvalidInputError {
  try {
    applyPatch(doc, patch);
  } catch (error) {
    if (error instanceof InvalidInputError) return error;
    throw error;
  }
  throw new Error('the patch applied');
}

describe('characters a patch may not add', () => {
  it('names the character, the hunk and the line and column of the patch', () => {
    const error = refusal('--- a/x.md\n+++ b/x.md\n@@ -3,1 +3,2 @@\n ## Notes\n+ok\n@@\n old\n+x\u0000y\n');
    expect(error.message).toMatch(
      /^Hunk 2 adds a control character \(U\+0000 NUL\) at line 8, column 3 of the patch\./,
    );
    expect(error.data).toMatchObject({ hunk: 2, patchLine: 8, column: 3, codePoint: 0 });
  });

  it("control characters in context and removed lines are the document's business, not the patch's", () => {
    const withBell = '# Title\n\n## Notes\u0007\n\nold\n';
    expect(applyPatch(withBell, '@@\n ## Notes\u0007\n \n-old\n+new\n').text).toBe(
      '# Title\n\n## Notes\u0007\n\nnew\n',
    );
  });

  it('tab is text; CRLF patches are line endings, not characters', () => {
    expect(applyPatch(doc, '@@\r\n old\r\n+\tnew\r\n').text).toBe('# Title\n\n## Notes\n\nold\n\tnew\n');
  });

  it('counts columns in characters, so an emoji before the bad character counts once', () => {
    expect(refusal('@@\n old\n+\u{1F600}\u001f\n').message).toMatch(/\(U\+001F US\) at line 3, column 3/);
  });

  it('refuses a lone surrogate anywhere, naming it', () => {
    expect(refusal('@@\n-old\n+new \udfff\n').message).toMatch(
      /lone surrogate \(U\+DFFF, half of a UTF-16 pair\) at line 3, column 6/,
    );
  });
});
