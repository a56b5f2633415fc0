import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** OWASP's scrypt baseline (N=2^17, r=8, p=1) costs 128 MiB per hash; 2^15 keeps sign-in cheap on small hosts. */
const DEFAULTS = { N: 2 ** 15, r: 8, p: 1, keyLength: 32, saltLength: 16 } as const;

const derive = (password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });

const memoryFor = (N: number, r: number) => 256 * N * r;

/**
 * `scrypt$N$r$p$salt$key` (base64url), so that the parameters can be raised later while
 * existing hashes still verify.
 */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p, keyLength, saltLength } = DEFAULTS;
  const salt = randomBytes(saltLength);
  const key = await derive(password, salt, keyLength, { N, r, p, maxmem: memoryFor(N, r) });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPasswordHash(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const actual = await derive(password, Buffer.from(salt, 'base64url'), expected.length, {
    ...params,
    maxmem: memoryFor(params.N, params.r),
  });
  return timingSafeEqual(actual, expected);
}
