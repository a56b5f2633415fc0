/** How much a key may do: `capacity` at once, refilled evenly to full over `windowMs`. 0 means no limit. */
export interface BucketRule {
  readonly capacity: number;
  readonly windowMs: number;
}

export type Taken = { readonly ok: true } | { readonly ok: false; readonly retryAfterMs: number };

const OK: Taken = Object.freeze({ ok: true });

/** Buckets kept before full ones (which hold no information) are forgotten. */
const MAX_KEYS = 10_000;

/**
 * Token buckets, one per key (a user and organization, an account, an address), in memory.
 * A bucket starts full; each use takes tokens; tokens come back continuously, so a client
 * that waits `retryAfterMs` always succeeds next. Pure apart from the clock it is given.
 */
export class TokenBuckets {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly rule: BucketRule,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes `cost` tokens from `key`'s bucket, or none and says when there will be enough. */
  take(key: string, cost = 1): Taken {
    const taken = this.peek(key, cost);
    if (taken.ok && this.rule.capacity > 0) {
      const bucket = this.#refilled(key);
      bucket.tokens -= cost;
      this.#buckets.set(key, bucket);
      if (this.#buckets.size > MAX_KEYS) this.#forgetFull();
    }
    return taken;
  }

  /** Whether `key` has `cost` tokens now, without taking them. */
  peek(key: string, cost = 1): Taken {
    if (this.rule.capacity <= 0) return OK;
    const { tokens } = this.#refilled(key);
    if (tokens >= cost) return OK;
    return { ok: false, retryAfterMs: Math.ceil(((cost - tokens) * this.rule.windowMs) / this.rule.capacity) };
  }

  /** A full bucket again (a correct password clears an account's failures). */
  reset(key: string): void {
    this.#buckets.delete(key);
  }

  #refilled(key: string): { tokens: number; at: number } {
    const now = this.now();
    const bucket = this.#buckets.get(key);
    if (!bucket) return { tokens: this.rule.capacity, at: now };
    const refill = ((now - bucket.at) * this.rule.capacity) / this.rule.windowMs;
    return { tokens: Math.min(this.rule.capacity, bucket.tokens + refill), at: now };
  }

  #forgetFull(): void {
    for (const key of this.#buckets.keys()) {
      if (this.#refilled(key).tokens >= this.rule.capacity) this.#buckets.delete(key);
    }
    // Still too many busy keys (a flood of distinct ones): the oldest go first.
    for (const key of this.#buckets.keys()) {
      if (this.#buckets.size <= MAX_KEYS) break;
      this.#buckets.delete(key);
    }
  }
}

/** Whole seconds for a Retry-After header: never 0, so that a client does wait. */
export const retryAfterSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
