import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
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
  const existing = readIfPresent(file);
  if (existing !== undefined) return parseKeys(file, existing);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return parseKeys(file, publishOnce(file, `${JSON.stringify(generateKeys(), null, 2)}\n`));
}

function generateKeys(): IdpKeys {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    jwks: {
      keys: [
        { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' },
      ],
    },
    cookieKeys: [randomBytes(32).toString('base64url')],
    rpClientSecret: randomBytes(32).toString('base64url'),
  };
}

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Replicas starting together on one data directory race to create the file. Each writes its
 * keys whole into a file of its own and hard-links it into place: a link never replaces an
 * existing file and never shows a half-written one, so every replica ends up with the winner's keys.
 */
function publishOnce(file: string, text: string): string {
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = openSync(temp, 'wx', 0o600);
  try {
    try {
      writeSync(handle, text);
      fsyncSync(handle);
    } finally {
      closeSync(handle);
    }
    linkSync(temp, file);
    return text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readFileSync(file, 'utf8');
  } finally {
    rmSync(temp, { force: true });
  }
}

function parseKeys(file: string, text: string): IdpKeys {
  try {
    return JSON.parse(text) as IdpKeys;
  } catch (error) {
    throw new Error(
      `${file} is not valid JSON (${(error as Error).message}). ` +
        'Restore it from a backup, or delete it to generate new keys (this signs every user out).',
    );
  }
}
