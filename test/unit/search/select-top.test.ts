import { describe, expect, it } from 'vitest';
import { selectTop } from '../../../src/search/select-top.js';

describe('selectTop', () => {
  it('returns the same items, in the same order, as sorting everything and slicing', () => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let round = 0; round < 200; round += 1) {
      const items = Array.from({ length: Math.floor(random() * 60) }, (_, n) => ({
        n,
        key: Math.floor(random() * 10),
      }));
      const compare = (a: { n: number; key: number }, b: { n: number; key: number }) => a.key - b.key || a.n - b.n;
      const limit = 1 + Math.floor(random() * 15);
      expect(selectTop(items, limit, compare)).toEqual([...items].sort(compare).slice(0, limit));
    }
  });
});
