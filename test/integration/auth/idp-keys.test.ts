import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEYS_FILE, loadOrCreateKeys } from '../../../src/auth/idp/keys.js';

const SCRIPT = path.resolve('test/integration/auth/load-keys.ts');

interface Outcome {
  kid?: string;
  secret?: string;
  error?: string;
}

/** Starts `count` processes, lets them all reach the call, then releases them in the same instant. */
async function loadTogether(dataDir: string, count: number): Promise<Outcome[]> {
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ['--import', 'tsx', SCRIPT, dataDir], { stdio: ['pipe', 'pipe', 'inherit'] }),
  );
  const lines = children.map((child) => {
    const received: string[] = [];
    let buffer = '';
    const waiters: (() => void)[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      received.push(...parts);
      for (const wake of waiters.splice(0)) wake();
    });
    const line = async (index: number): Promise<string> => {
      while (received.length <= index) await new Promise<void>((resolve) => waiters.push(resolve));
      return received[index]!;
    };
    return line;
  });
  await Promise.all(lines.map((line) => line(0)));
  for (const child of children) child.stdin.end('go\n');
  return Promise.all(lines.map(async (line) => JSON.parse(await line(1)) as Outcome));
}

describe('keys of the embedded identity provider', () => {
  it('are created once when several replicas start together on one data directory, and all of them get the same keys', async () => {
    for (let round = 0; round < 2; round++) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'specbase-keys-'));
      const outcomes = await loadTogether(dataDir, 6);
      expect(outcomes.filter((outcome) => outcome.error)).toEqual([]);
      const onDisk = JSON.parse(readFileSync(path.join(dataDir, KEYS_FILE), 'utf8')) as {
        rpClientSecret: string;
        jwks: { keys: { kid: string }[] };
      };
      for (const outcome of outcomes)
        expect(outcome).toEqual({ kid: onDisk.jwks.keys[0]!.kid, secret: onDisk.rpClientSecret });
      expect(statSync(path.join(dataDir, KEYS_FILE)).mode & 0o777).toBe(0o600);
      expect(readdirSync(dataDir)).toEqual([KEYS_FILE]);
    }
  }, 120_000);

  it('refuses a damaged keys file with a message that names it, instead of replacing the keys', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'specbase-keys-'));
    const file = path.join(dataDir, KEYS_FILE);
    writeFileSync(file, '{"jwks": ');
    expect(() => loadOrCreateKeys(dataDir)).toThrow(`${file} is not valid JSON`);
    expect(readFileSync(file, 'utf8')).toBe('{"jwks": ');
  });
});
