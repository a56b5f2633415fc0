import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../src/errors.js';
import { mergeWithMarkers, threeWayMerge } from '../../../src/patch/index.js';

const REPEATED = [
  '# Checkout',
  '',
  '## Web',
  '',
  '- Pay with card',
  '- Pay with voucher',
  '',
  '## Mobile',
  '',
  '- Pay with card',
  '- Pay with voucher',
  '',
].join('\n');

describe('threeWayMerge (revert of one change)', () => {
  it('reverts a change inside a passage that occurs twice, by position in the merge, not by text search', () => {
    const after = REPEATED.replace('## Mobile\n\n- Pay with card', '## Mobile\n\n- Pay with Apple Pay');
    const current = after.replace('# Checkout', '# Checkout and payment');
    expect(threeWayMerge({ ours: current, base: after, theirs: REPEATED })).toBe(
      REPEATED.replace('# Checkout', '# Checkout and payment'),
    );
  });

  it('keeps later edits elsewhere, above and below the reverted lines', () => {
    const before = 'one\ntwo\nthree\nfour\nfive\n';
    const after = 'one\ntwo\nTHREE\nfour\nfive\n';
    const current = 'zero\none\ntwo\nTHREE\nfour\nfive\nsix\n';
    expect(threeWayMerge({ ours: current, base: after, theirs: before })).toBe(
      'zero\none\ntwo\nthree\nfour\nfive\nsix\n',
    );
  });

  it('refuses, with a ConflictError, when the same lines changed again since', () => {
    const before = 'one\ntwo\nthree\n';
    const after = 'one\nTWO\nthree\n';
    const current = 'one\nTwo, reworded\nthree\n';
    expect(() => threeWayMerge({ ours: current, base: after, theirs: before })).toThrow(ConflictError);
    expect(() => threeWayMerge({ ours: current, base: after, theirs: before })).toThrow(
      /1 passage changed again since; the change cannot be carried over without guessing/,
    );
  });

  it('keeps CRLF line endings and a missing final newline byte for byte', () => {
    const before = 'a\r\nb\r\nc\r\nd';
    const after = 'a\r\nB\r\nc\r\nd';
    const current = 'a\r\nB\r\nc\r\nd\r\ne';
    expect(threeWayMerge({ ours: current, base: after, theirs: before })).toBe('a\r\nb\r\nc\r\nd\r\ne');
  });

  it('returns the current text unchanged when the change was already undone', () => {
    const before = 'x\ny\n';
    const after = 'x\nY\n';
    expect(threeWayMerge({ ours: before, base: after, theirs: before })).toBe(before);
  });
});

describe('mergeWithMarkers (a save that collided with another change)', () => {
  const base = 'Title\n\nOne\nTwo\nThree\n';

  it('merges what only one side changed and writes nothing in markers', () => {
    const result = mergeWithMarkers(
      { ours: 'Title\n\nOne!\nTwo\nThree\n', base, theirs: 'Title\n\nOne\nTwo\nThree!\n' },
      { ours: 'mine', theirs: 'theirs' },
    );
    expect(result).toEqual({ text: 'Title\n\nOne!\nTwo\nThree!\n', conflicts: 0 });
  });

  it('puts both texts of a passage both sides changed between Git-style markers', () => {
    const result = mergeWithMarkers(
      { ours: 'Title\n\nOne (me)\nTwo\nThree\n', base, theirs: 'Title\n\nOne (them)\nTwo\nThree!\n' },
      { ours: 'your edit', theirs: 'current version' },
    );
    expect(result.conflicts).toBe(1);
    expect(result.text).toBe(
      'Title\n\n<<<<<<< your edit\nOne (me)\n=======\nOne (them)\n>>>>>>> current version\nTwo\nThree!\n',
    );
    expect(() =>
      threeWayMerge({ ours: 'Title\n\nOne (me)\nTwo\nThree\n', base, theirs: 'Title\n\nOne (them)\nTwo\nThree!\n' }),
    ).toThrow(ConflictError);
  });

  it('ends each side with a line break even when the document does not', () => {
    const result = mergeWithMarkers({ ours: 'a\nmine', base: 'a\nb', theirs: 'a\ntheirs' }, { ours: 'x', theirs: 'y' });
    expect(result.text).toBe('a\n<<<<<<< x\nmine\n=======\ntheirs\n>>>>>>> y\n');
  });
});
