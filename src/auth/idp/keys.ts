import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Secrets of the embedded provider, generated on first start and kept beside the data. */
export interface IdpKeys {
  /** Private signing keys (JWK) for ID tokens. */
  readonly jwks: { keys: Record<string, unknown>[] };
  /** Keys that sign oidc-provider's cookies. */
  readonly cookieKeys: string[];
  /** Secret of our own relying party at the embedded provider. */
  readonly rpClientSecret: string;
}

export const KEYS_FILE = 'oidc-keys.json';

export function loadOrCreateKeys(dataDir: string): IdpKeys {
  const file = path.join(dataDir, KEYS_FILE);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as IdpKeys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keys: IdpKeys = {
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' }] },
    cookieKeys: [randomBytes(32).toString('base64url')],
    rpClientSecret: randomBytes(32).toString('base64url'),
  };
  mkdirSync(dataDir, { recursive: true });
  // 'wx' so that two processes starting together never overwrite each other's keys.
  try {
    writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return JSON.parse(readFileSync(file, 'utf8')) as IdpKeys;
    throw error;
  }
  return keys;
}
