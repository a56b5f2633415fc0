// Run by idp-keys.test.ts as a process of its own: loads (or creates) the keys once the test says go.
import { once } from 'node:events';
import { loadOrCreateKeys } from '../../../src/auth/idp/keys.js';

const dataDir = process.argv[2]!;
process.stdout.write('ready\n');
await once(process.stdin, 'data');
try {
  const keys = loadOrCreateKeys(dataDir);
  process.stdout.write(`${JSON.stringify({ kid: keys.jwks.keys[0]?.kid, secret: keys.rpClientSecret })}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ error: (error as Error).message })}\n`);
}
process.exit(0);
