import { describe, expect, it } from 'vitest';
import { lineOrigins } from '../../../src/patch/line-origins.js';

describe('lineOrigins', () => {
  it('names the line each kept line was, and -1 for the lines added or changed', () => {
    const before = 'a\nb\nc\nd\n';
    const after = 'a\nB\nc\nnew\nd\n';
    expect([...lineOrigins(before, after)!]).toEqual([0, -1, 2, -1, 3]);
  });

  it('counts a last line without its newline as a line, and an emptied or new text', () => {
    expect([...lineOrigins('a\nb', 'a\nb\nc')!]).toEqual([0, -1, -1]);
    expect([...lineOrigins('', 'a\nb\n')!]).toEqual([-1, -1]);
    expect([...lineOrigins('a\n', '')!]).toEqual([]);
  });

  it('gives up on a change too large to diff exactly, rather than count kept lines as new', () => {
    const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} ${i}\n`).join('');
    // Every other line of 20,000 replaced: an edit distance far past the exact diff's budget.
    const before = lines(20_000, 'line');
    const after = before
      .split('\n')
      .map((line, i) => (i % 2 ? `changed ${line}` : line))
      .join('\n');
    expect(lineOrigins(before, after)).toBeUndefined();
  });
});
