import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Limits } from '../config/index.js';
import type { ImportSource } from '../domain/index.js';
import { importSourceOf, importSourcesOfZip, importSummary } from '../transfer/index.js';
import { InvalidInputError } from '../errors.js';
import { actorOf } from './artifact-commands.js';
import { recordCli } from './command.js';
import type { Command } from './commands.js';

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

/** `\rImporting 120/500` on a terminal, cleared at the end; nothing when output is not a terminal. */
function progressLine(enabled: boolean) {
  return {
    show: (done: number, total: number) => enabled && process.stderr.write(`\rImporting ${done}/${total}…`),
    clear: () => enabled && process.stderr.write('\r\u001b[K'),
  };
}

/** Every markdown file under `dir` (or in the zip archive it names), read as the import takes it. */
export async function readImportSources(dir: string, limits: Limits): Promise<ImportSource[]> {
  if (/\.zip$/i.test(dir) && (await stat(dir).catch(() => undefined))?.isFile())
    return importSourcesOfZip(await readFile(dir), limits.maxDocumentBytes, limits.maxImportBytes);
  const files = await markdownFiles(dir).catch((error: NodeJS.ErrnoException) => {
    throw new InvalidInputError(`cannot read the directory ${dir}: ${error.code ?? error.message}`);
  });
  const sources: ImportSource[] = [];
  for (const file of files) sources.push(importSourceOf(file, await readFile(path.join(dir, file))));
  return sources;
}

export const IMPORT_COMMAND: Command = {
  name: 'import',
  usage:
    'import --org ORG_ID --user EMAIL DIR|FILE.zip [--folder ID] [--dry-run]   markdown files, one commit each, links kept; a re-run skips what was imported',
  flags: {
    org: { type: 'string' },
    user: { type: 'string' },
    dir: { type: 'string' },
    folder: { type: 'string' },
    'dry-run': { type: 'boolean' },
  },
  required: ['org', 'user', 'dir'],
  positional: 'dir',
  run: async (services, flags) => {
    const dir = path.resolve(String(flags.dir));
    const actor = await actorOf(services, flags);
    const sources = await readImportSources(dir, services.config.limits);
    const progress = progressLine(Boolean(process.stderr.isTTY) && flags.json !== true);
    const report = await services.specs.importFiles(actor, sources, {
      dryRun: flags['dry-run'] === true,
      ...(typeof flags.folder === 'string' ? { folderId: flags.folder } : {}),
      onProgress: progress.show,
    });
    progress.clear();
    if (!report.dryRun) {
      await recordCli(services, {
        orgId: actor.principal.orgId,
        userId: actor.principal.userId,
        action: 'import',
        detail: importSummary(report),
      });
    }
    if (flags.json === true) return { ...report };
    return {
      [report.dryRun ? 'wouldImport' : 'imported']: report.imported.length,
      skipped: report.skipped.length,
      refused: report.refused.length,
      folders: report.folders,
      linksRewritten: report.linksRewritten,
      ...(report.refused.length
        ? { refusedFiles: report.refused.map((r) => `${r.path}: ${r.reason}`).join('\n  ') }
        : {}),
      ...(report.unresolvedLinks.length
        ? {
            linksLeftAsWritten: report.unresolvedLinks
              .map((f) => `${f.path}: ${f.links.map((l) => `${l.target} (${l.why})`).join(', ')}`)
              .join('\n  '),
          }
        : {}),
      ...(report.droppedFields.length
        ? { droppedFields: report.droppedFields.map((f) => `${f.path}: ${f.fields.join(', ')}`).join('\n  ') }
        : {}),
    };
  },
};
