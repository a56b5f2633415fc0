import { crc32, deflateRawSync } from 'node:zlib';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { zipChunks } from '../../../src/transfer/export-zip.js';
import { centralDirectoryHeader, endOfCentralDirectory, localFileHeader } from '../../../src/transfer/zip-records.js';

async function archive(count: number): Promise<Buffer> {
  async function* files() {
    for (let i = 0; i < count; i++)
      yield { path: `Café/page-${i}.md`, text: `# Page ${i}\n\nÜber ${'x'.repeat(i % 50)}\n` };
  }
  const chunks: Uint8Array[] = [];
  for await (const chunk of zipChunks(files())) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe('the export zip', () => {
  it('reads back with UTF-8 names and bodies, as the import reads them', async () => {
    const zip = await archive(3);
    const files = unzipSync(zip);
    expect(Object.keys(files)).toEqual(['Café/page-0.md', 'Café/page-1.md', 'Café/page-2.md']);
    expect(strFromU8(files['Café/page-2.md']!)).toBe('# Page 2\n\nÜber xx\n');
  });

  it('carries more than 65,535 files in a ZIP64 end record', () => {
    // The records alone, around one body deflated once: seventy thousand deflates would be seconds of the suite.
    const data = Buffer.from('# Same\n');
    const compressed = deflateRawSync(data);
    const when = { date: 0x21, time: 0 };
    const parts: Buffer[] = [];
    const directory: Buffer[] = [];
    let offset = 0;
    for (let i = 0; i < 70_000; i++) {
      const entry = {
        name: Buffer.from(`${i}.md`),
        crc: crc32(data),
        compressedSize: compressed.length,
        size: data.length,
        offset,
      };
      const header = localFileHeader(entry, when);
      parts.push(header, compressed);
      directory.push(centralDirectoryHeader(entry, when));
      offset += header.length + compressed.length;
    }
    const central = Buffer.concat(directory);
    const zip = Buffer.concat([...parts, central, endOfCentralDirectory(directory.length, central.length, offset)]);
    expect(Object.keys(unzipSync(zip))).toHaveLength(70_000);
  });

  it('names a local header past 4 GiB in a ZIP64 extra field', () => {
    const offset = 5 * 2 ** 30;
    const name = Buffer.from('a.md');
    const header = centralDirectoryHeader({ name, crc: 1, compressedSize: 2, size: 3, offset }, { date: 0, time: 0 });
    expect(header.readUInt32LE(42)).toBe(0xffffffff);
    expect(header.readUInt16LE(30)).toBe(12);
    expect(header.readUInt16LE(46 + name.length)).toBe(0x0001);
    expect(Number(header.readBigUInt64LE(46 + name.length + 4))).toBe(offset);
  });
});
