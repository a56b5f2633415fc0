import { Zip, ZipDeflate } from 'fflate';
import type { ExportFile } from '../domain/index.js';

const encoder = new TextEncoder();

/**
 * The files as a zip archive, chunk by chunk as the consumer pulls: each file is compressed and
 * handed on before the next one is read, so an export's memory is one file's, not the archive's.
 * fflate's synchronous `ZipDeflate` emits a file's bytes while it is pushed, so the chunks are
 * there to yield right after.
 */
export async function* zipChunks(files: AsyncIterable<ExportFile>): AsyncGenerator<Uint8Array> {
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else ready.push(chunk);
  });
  const check = () => {
    if (failure) throw failure;
  };
  for await (const file of files) {
    const entry = new ZipDeflate(file.path, { level: 6 });
    zip.add(entry);
    entry.push(encoder.encode(file.text), true);
    check();
    yield* ready.splice(0);
  }
  zip.end();
  check();
  yield* ready.splice(0);
}
