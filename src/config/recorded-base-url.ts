import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from './index.js';

/**
 * The public base URL the server serves at, written into the data directory at every start: the
 * CLI runs with an environment of its own (often no PORT, no SPECBASE_BASE_URL) and would
 * otherwise print links to a port nobody listens on.
 */
const FILE = 'base-url';

/** Written beside the repositories, replaced whole (a reader never sees half of it). */
export async function recordBaseUrl(dataDir: string, baseUrl: string): Promise<void> {
  const target = path.join(dataDir, FILE);
  const partial = `${target}.${process.pid}.tmp`;
  await writeFile(partial, `${baseUrl}\n`);
  await rename(partial, target);
}

/** The base URL the server last recorded in `dataDir`; undefined when no server started there yet. */
export function recordedBaseUrl(dataDir: string): string | undefined {
  const file = path.join(dataDir, FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (!URL.canParse(text)) throw new ConfigError(`${file} does not hold a URL; delete it or start the server once`);
  return text;
}

/**
 * The configuration for a command run beside the server: its URLs are the ones the server
 * recorded, unless SPECBASE_BASE_URL is set for the command itself.
 */
export function loadConfigAsServed(env: NodeJS.ProcessEnv): Config {
  const config = loadConfig(env);
  if (env.SPECBASE_BASE_URL) return config;
  const recorded = recordedBaseUrl(config.dataDir);
  return recorded ? loadConfig({ ...env, SPECBASE_BASE_URL: recorded }) : config;
}
