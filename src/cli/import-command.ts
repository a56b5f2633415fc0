import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImportSource } from '../domain/types.js';
import { InvalidInputError, SpecbaseError } from '../errors.js';
import { parseSourceDocument } from '../store/index.js';
import { actorOf } from './artifact-commands.js';
import type { Command } from './commands.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The markdown files under `dir`, relative and '/'-separated, sorted; hidden entries left out. */
async function markdownFiles(dir: string, under = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(path.join(dir, under), { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const relative = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...(await markdownFiles(dir, relative)));
    else if (entry.isFile() && /\.md$/i.test(entry.name)) found.push(relative);
  }
  return found.sort();
}

/** One file as the import takes it: decoded as UTF-8 (or why not), frontmatter fields and body. */
async function readSource(dir: string, relative: string): Promise<ImportSource> {
  const bytes = await readFile(path.join(dir, relative));
  let text: string;
  try {
    text = utf8.decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return { path: relative, bytes: bytes.length, problem: 'the file is not UTF-8 text' };
  }
  try {
    const { fields, body } = parseSourceDocument(text.replace(/\r\n/g, '\n'), relative);
    return { path: relative, bytes: bytes.length, fields, body };
  } catch (error) {
    if (error instanceof SpecbaseError) return { path: relative, bytes: bytes.length, problem: error.message };
    throw error;
  }
}

/** `\rImporting 120/500` on a terminal, cleared at the end; nothing when output is not a terminal. */
function progressLine(enabled: boolean) {
  return {
    show: (done: number, total: number) => enabled && process.stderr.write(`\rImporting ${done}/${total}…`),
    clear: () => enabled && process.stderr.write('\r\u001b[K'),
  };
}

/** Every markdown file under `dir`, read as the import takes it. */
export async function readImportSources(dir: string): Promise<ImportSource[]> {
  const files = await markdownFiles(dir).catch((error: NodeJS.ErrnoException) => {
    throw new InvalidInputError(`cannot read the directory ${dir}: ${error.code ?? error.message}`);
  });
  const sources: ImportSource[] = [];
  for (const file of files) sources.push(await readSource(dir, file));
  return sources;
}

export const IMPORT_COMMAND: Command = {
  name: 'import',
  usage:
    'import --org ORG_ID --user EMAIL DIR [--dry-run]   markdown files, one commit each; a re-run skips what was imported',
  flags: { org: { type: 'string' }, user: { type: 'string' }, dir: { type: 'string' }, 'dry-run': { type: 'boolean' } },
  required: ['org', 'user', 'dir'],
  positional: 'dir',
  run: async (services, flags) => {
    const dir = path.resolve(String(flags.dir));
    const actor = await actorOf(services, flags);
    const sources = await readImportSources(dir);
    const progress = progressLine(Boolean(process.stderr.isTTY) && flags.json !== true);
    const report = await services.specs.importFiles(actor, sources, {
      dryRun: flags['dry-run'] === true,
      onProgress: progress.show,
    });
    progress.clear();
    if (flags.json === true) return { ...report };
    return {
      [report.dryRun ? 'wouldImport' : 'imported']: report.imported.length,
      skipped: report.skipped.length,
      refused: report.refused.length,
      folders: report.folders,
      ...(report.refused.length
        ? { refusedFiles: report.refused.map((r) => `${r.path}: ${r.reason}`).join('\n  ') }
        : {}),
    };
  },
};
