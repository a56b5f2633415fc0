import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh random secret, URL-safe, with a readable prefix telling what it is. */
export const newSecret = (prefix: string): string => `${prefix}${randomBytes(32).toString('base64url')}`;

/** Only this digest of a secret is ever stored. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
