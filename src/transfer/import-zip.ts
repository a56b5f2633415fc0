import { unzipSync } from 'fflate';
import { InvalidInputError, PayloadTooLargeError } from '../errors.js';
import { importSourceOf } from './import-source.js';
import type { ImportSource } from '../domain/index.js';

/** Markdown files; hidden files and directories, and the `__MACOSX` copies Finder puts into an archive, are left out. */
export const isMarkdown = (name: string): boolean =>
  /\.md$/i.test(name) && !name.split('/').some((part) => part.startsWith('.') || part === '__MACOSX');

/**
 * The markdown files of a zip archive, read as the import takes files from a directory. A file
 * whose declared size passes `maxFileBytes` is not inflated: it is listed with the reason. The
 * declared sizes of the files taken may add up to `maxTotalBytes` at most (a small archive can
 * hold gigabytes); past that nothing is taken.
 */
export function importSourcesOfZip(bytes: Uint8Array, maxFileBytes: number, maxTotalBytes: number): ImportSource[] {
  const tooLarge: ImportSource[] = [];
  let total = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (file) => {
        if (!isMarkdown(file.name)) return false;
        if (file.originalSize > maxFileBytes) {
          tooLarge.push({
            path: file.name,
            bytes: file.originalSize,
            problem: `the file is ${file.originalSize} bytes; the limit is ${maxFileBytes}`,
          });
          return false;
        }
        total += file.originalSize;
        if (total > maxTotalBytes) throw new PayloadTooLargeError('the markdown in the archive', maxTotalBytes, total);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof PayloadTooLargeError) throw error;
    throw new InvalidInputError(`the file is not a zip archive that can be read (${(error as Error).message})`);
  }
  return [...Object.entries(files).map(([name, data]) => importSourceOf(name, data)), ...tooLarge].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
}
