import { describe, expect, it } from 'vitest';
import { retryAfterSeconds, TokenBuckets } from '../../../src/limits/index.js';

describe('TokenBuckets', () => {
  it('allows a burst of capacity, then says exactly when the next token is back', () => {
    let now = 0;
    const buckets = new TokenBuckets({ capacity: 3, windowMs: 60_000 }, () => now);
    for (let i = 0; i < 3; i++) expect(buckets.take('a').ok).toBe(true);
    expect(buckets.take('a')).toEqual({ ok: false, retryAfterMs: 20_000 });
    expect(buckets.take('b').ok).toBe(true);
    now = 19_999;
    expect(buckets.take('a').ok).toBe(false);
    now = 20_000;
    expect(buckets.take('a').ok).toBe(true);
    expect(buckets.take('a').ok).toBe(false);
  });

  it('takes all of a multi-token cost or nothing', () => {
    const buckets = new TokenBuckets({ capacity: 2, windowMs: 1_000 }, () => 0);
    expect(buckets.take('a', 3)).toEqual({ ok: false, retryAfterMs: 500 });
    expect(buckets.take('a', 2).ok).toBe(true);
  });

  it('peek takes nothing; reset refills; capacity 0 is no limit', () => {
    const buckets = new TokenBuckets({ capacity: 1, windowMs: 1_000 }, () => 0);
    expect(buckets.peek('a').ok).toBe(true);
    expect(buckets.take('a').ok).toBe(true);
    expect(buckets.peek('a').ok).toBe(false);
    buckets.reset('a');
    expect(buckets.take('a').ok).toBe(true);
    const unlimited = new TokenBuckets({ capacity: 0, windowMs: 1_000 });
    for (let i = 0; i < 1_000; i++) expect(unlimited.take('a').ok).toBe(true);
  });

  it('Retry-After is whole seconds, never 0', () => {
    expect([retryAfterSeconds(1), retryAfterSeconds(1_000), retryAfterSeconds(1_001)]).toEqual([1, 1, 2]);
  });
});
