import { crc32, deflateRawSync } from 'node:zlib';
import type { ExportFile } from '../domain/index.js';
import { centralDirectoryHeader, dosDateTime, endOfCentralDirectory, localFileHeader } from './zip-records.js';

/**
 * The central directory as it grows, copied into one buffer doubled when full. Kept as a Buffer
 * per file, each record was a slice of Node's shared 8 KiB allocation pool, and held on to the
 * whole slab, bodies of other files included: 1.7 KiB a file, not its 50 to 100 bytes.
 */
class CentralDirectory {
  #bytes = Buffer.alloc(64 * 1024);
  #length = 0;
  count = 0;

  add(record: Buffer): void {
    if (this.#length + record.length > this.#bytes.length) {
      const grown = Buffer.alloc(Math.max(2 * this.#bytes.length, this.#length + record.length));
      this.#bytes.copy(grown, 0, 0, this.#length);
      this.#bytes = grown;
    }
    record.copy(this.#bytes, this.#length);
    this.#length += record.length;
    this.count++;
  }

  bytes(): Buffer {
    return this.#bytes.subarray(0, this.#length);
  }
}

/**
 * The files as a zip archive, chunk by chunk as the consumer pulls: each file is compressed and
 * handed on before the next one is read, so an export's memory is one file's plus the central
 * directory, which a zip must keep to its end: 46 bytes and the path per file, nothing of the
 * bodies. (fflate's streaming `Zip` kept about 1.5 KiB of objects per file.)
 */
export async function* zipChunks(files: AsyncIterable<ExportFile>): AsyncGenerator<Uint8Array> {
  const when = dosDateTime(new Date());
  const directory = new CentralDirectory();
  let offset = 0;
  for await (const file of files) {
    const data = Buffer.from(file.text, 'utf8');
    const compressed = deflateRawSync(data, { level: 6 });
    const entry = {
      name: Buffer.from(file.path, 'utf8'),
      crc: crc32(data),
      compressedSize: compressed.length,
      size: data.length,
      offset,
    };
    const header = localFileHeader(entry, when);
    directory.add(centralDirectoryHeader(entry, when));
    offset += header.length + compressed.length;
    yield header;
    yield compressed;
  }
  const central = directory.bytes();
  yield central;
  yield endOfCentralDirectory(directory.count, central.length, offset);
}
