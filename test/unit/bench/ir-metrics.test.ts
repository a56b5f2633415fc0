import { describe, expect, it } from 'vitest';
import { averagePrecisionAt, mean, ndcgAt, recallAt } from '../../../bench/support/ir-metrics.js';

// Three relevant documents; the ranking finds a at rank 1 and c at rank 3, never x.
const relevant = new Set(['a', 'c', 'x']);
const ranked = ['a', 'b', 'c', 'd', 'e'];

describe('ranking metrics with binary relevance', () => {
  it('nDCG@k divides the discounted gain by that of every relevant document first', () => {
    // DCG = 1/log2(2) + 1/log2(4) = 1.5; ideal = 1 + 1/log2(3) + 1/log2(4) = 2.1309298
    expect(ndcgAt(ranked, relevant, 10)).toBeCloseTo(1.5 / 2.1309298, 6);
    expect(ndcgAt(ranked, relevant, 10)).toBeCloseTo(0.703918, 6);
    // Cut at 2: DCG = 1, ideal over two documents = 1 + 1/log2(3) = 1.6309298
    expect(ndcgAt(ranked, relevant, 2)).toBeCloseTo(0.6131472, 6);
    expect(ndcgAt(['a', 'c', 'x'], relevant, 10)).toBeCloseTo(1, 12);
    expect(ndcgAt(['b', 'd'], relevant, 10)).toBe(0);
  });

  it('the ideal ranking holds at most k documents', () => {
    const many = new Set(['r1', 'r2', 'r3', 'r4']);
    expect(ndcgAt(['r1', 'r2'], many, 2)).toBeCloseTo(1, 12);
  });

  it('AP@k sums the precision at each relevant document found and divides by all relevant', () => {
    // (1/1 + 2/3) / 3
    expect(averagePrecisionAt(ranked, relevant, 50)).toBeCloseTo(5 / 9, 12);
    // Cut at 2: 1/1 / 3
    expect(averagePrecisionAt(ranked, relevant, 2)).toBeCloseTo(1 / 3, 12);
  });

  it('recall@k is the share of relevant documents in the top k', () => {
    expect(recallAt(ranked, relevant, 1)).toBeCloseTo(1 / 3, 12);
    expect(recallAt(ranked, relevant, 10)).toBeCloseTo(2 / 3, 12);
    expect(recallAt([], relevant, 10)).toBe(0);
  });

  it('an id ranked twice counts once', () => {
    expect(recallAt(['a', 'a', 'c'], relevant, 2)).toBeCloseTo(1 / 3, 12);
    expect(averagePrecisionAt(['a', 'a', 'c'], relevant, 3)).toBeCloseTo((1 + 2 / 3) / 3, 12);
    expect(ndcgAt(['a', 'a'], relevant, 2)).toBeCloseTo(ndcgAt(['a', 'b'], relevant, 2), 12);
  });

  it('refuses a query without relevant documents', () => {
    expect(() => recallAt(ranked, new Set(), 10)).toThrow(/without relevant/);
  });

  it('mean', () => {
    expect(mean([0.25, 0.5, 0.75])).toBe(0.5);
  });
});
