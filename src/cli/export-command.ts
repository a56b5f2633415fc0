import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ExportFile, ExportSelection } from '../domain/index.js';
import { zipChunks } from '../transfer/index.js';
import { InvalidInputError } from '../errors.js';
import { actorOf } from './artifact-commands.js';
import { recordCli } from './command.js';
import type { Command, Flags } from './command.js';

const selectionOf = (flags: Flags): ExportSelection => {
  if (flags.artifact !== undefined && flags.folder !== undefined)
    throw new InvalidInputError('export an artifact or a folder, not both');
  if (flags.artifact !== undefined) return { artifactId: String(flags.artifact) };
  if (flags.folder !== undefined) return { folderId: String(flags.folder) };
  return { all: true };
};

async function* counted(files: AsyncIterable<ExportFile>, count: { files: number }) {
  for await (const file of files) {
    count.files++;
    yield file;
  }
}

export const EXPORT_COMMAND: Command = {
  name: 'export',
  usage:
    'export --org ORG_ID --user EMAIL [--artifact ID | --folder ID] --out FILE.zip   markdown files with relative links, importable again',
  flags: {
    org: { type: 'string' },
    user: { type: 'string' },
    artifact: { type: 'string' },
    folder: { type: 'string' },
    out: { type: 'string' },
  },
  required: ['org', 'user', 'out'],
  run: async (services, flags) => {
    const out = path.resolve(String(flags.out));
    const actor = await actorOf(services, flags);
    const selection = selectionOf(flags);
    const count = { files: 0 };
    const files = counted(services.specs.exportFiles(actor, selection), count);
    try {
      await pipeline(Readable.from(zipChunks(files)), createWriteStream(out));
    } catch (error) {
      // No half-written archive is left behind to be mistaken for an export.
      await rm(out, { force: true });
      throw error;
    }
    await recordCli(services, {
      orgId: actor.principal.orgId,
      userId: actor.principal.userId,
      action: 'export',
      detail: `exported ${count.files} files`,
    });
    return { files: count.files, out };
  },
};
