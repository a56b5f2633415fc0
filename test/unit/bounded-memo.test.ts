import { describe, expect, it } from 'vitest';
import { boundedMemo } from '../../src/bounded-memo.js';

describe('boundedMemo', () => {
  it('computes a key once, and again only after the memo started over at its capacity', () => {
    const computed: string[] = [];
    const upper = boundedMemo(2, (key: string) => {
      computed.push(key);
      return key.toUpperCase();
    });
    expect([upper('a'), upper('b'), upper('a'), upper('b')]).toEqual(['A', 'B', 'A', 'B']);
    expect(computed).toEqual(['a', 'b']);
    // A third key finds the memo full: it starts over with that key alone.
    expect(upper('c')).toBe('C');
    expect([upper('c'), upper('a')]).toEqual(['C', 'A']);
    expect(computed).toEqual(['a', 'b', 'c', 'a']);
  });

  it('keeps nothing of a key whose computation threw: the next call computes it again', () => {
    let calls = 0;
    const flaky = boundedMemo(10, (key: number) => {
      calls += 1;
      if (calls === 1) throw new Error(`not yet: ${key}`);
      return key * 2;
    });
    expect(() => flaky(4)).toThrow('not yet: 4');
    expect(flaky(4)).toBe(8);
    expect(flaky(4)).toBe(8);
    expect(calls).toBe(2);
  });
});
