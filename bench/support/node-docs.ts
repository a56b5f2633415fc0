import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const CLI = path.resolve('bin/specbase.js');

/**
 * Documentation nobody here wrote, as the Debian `nodejs` package installs it (`dpkg -L nodejs`
 * lists the Node.js pages; its bundled npm holds npm's and undici's): read where it is installed,
 * never copied into the repository. `SPECBASE_BENCH_DOCS` (directories joined by `:`) names
 * others instead.
 */
export function nodeDocDirectories(): string[] {
  const named = process.env.SPECBASE_BENCH_DOCS;
  if (named) return named.split(':').filter(Boolean);
  const npm = path.resolve(path.dirname(process.execPath), '../lib/node_modules/npm');
  return [
    '/usr/share/doc/nodejs',
    path.join(npm, 'docs/content'),
    path.join(npm, 'node_modules/undici/docs/docs'),
  ].filter((dir) => existsSync(dir));
}

/** `node bin/specbase.js ...args --json --data-dir dir`, as a user runs the CLI; its JSON answer. */
export async function specbaseCli(dataDir: string, args: readonly string[]): Promise<Record<string, unknown>> {
  const { stdout } = await exec(process.execPath, [CLI, ...args, '--json', '--data-dir', dataDir], {
    env: { ...process.env, SPECBASE_LOG_LEVEL: 'silent', SPECBASE_FSYNC: 'off' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

export interface ImportedDocs {
  readonly orgId: string;
  readonly email: string;
  /** Files imported, per directory. */
  readonly imported: readonly { readonly dir: string; readonly files: number }[];
}

/**
 * A new organization owned by a new user, and `specbase import` of each directory into it
 * (pages in folders mirroring the directories, one commit per file).
 */
export async function importDocs(dataDir: string, dirs: readonly string[]): Promise<ImportedDocs> {
  const email = 'docs-reader@example.com';
  await specbaseCli(dataDir, ['user', 'add', '--email', email, '--name', 'Docs Reader', '--password', 'docs-reader']);
  const { orgId } = await specbaseCli(dataDir, ['org', 'create', '--name', 'Node.js docs', '--owner', email]);
  const imported: { dir: string; files: number }[] = [];
  for (const dir of dirs) {
    const report = await specbaseCli(dataDir, ['import', '--org', String(orgId), '--user', email, dir]);
    imported.push({ dir, files: (report.imported as unknown[]).length });
  }
  return { orgId: String(orgId), email, imported };
}
