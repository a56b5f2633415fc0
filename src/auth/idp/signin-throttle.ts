import type { UserLimits } from '../../config/index.js';
import { LimitExceededError } from '../../errors.js';
import { retryAfterSeconds, TokenBuckets } from '../../limits/index.js';

export type SigninLimits = Pick<
  UserLimits,
  'signinFailuresPerAccount' | 'signinFailuresPerAddress' | 'signinWindowSeconds'
>;

/** "45 seconds", "3 minutes": how a person reads a wait. */
function inWords(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/**
 * Password guessing on the embedded sign-in, slowed per account and per client address: each
 * failed attempt takes a token; a budget refills to full over the window. While a budget is
 * spent, attempts are refused without looking at the password, so they reveal nothing and cost
 * nothing. A correct password clears its account's failures (not its address's).
 */
export class SigninThrottle {
  readonly #accounts: TokenBuckets;
  readonly #addresses: TokenBuckets;

  constructor(limits: SigninLimits, now: () => number = Date.now) {
    const windowMs = limits.signinWindowSeconds * 1000;
    this.#accounts = new TokenBuckets({ capacity: limits.signinFailuresPerAccount, windowMs }, now);
    this.#addresses = new TokenBuckets({ capacity: limits.signinFailuresPerAddress, windowMs }, now);
  }

  /** Why an attempt for `email` from `address` may not be tried now; undefined when it may. */
  refusal(email: string, address: string): LimitExceededError | undefined {
    const account = this.#accounts.peek(accountKey(email));
    const from = this.#addresses.peek(address);
    const spent = !account.ok
      ? { who: 'this account', waitMs: account.retryAfterMs }
      : !from.ok
        ? { who: 'your network address', waitMs: from.retryAfterMs }
        : undefined;
    if (!spent) return undefined;
    const seconds = retryAfterSeconds(spent.waitMs);
    return new LimitExceededError(
      `Too many failed sign-in attempts for ${spent.who}. Try again in ${inWords(seconds)}.`,
      seconds,
    );
  }

  failed(email: string, address: string): void {
    this.#accounts.take(accountKey(email));
    this.#addresses.take(address);
  }

  succeeded(email: string): void {
    this.#accounts.reset(accountKey(email));
  }
}

const accountKey = (email: string): string => email.trim().toLowerCase();
