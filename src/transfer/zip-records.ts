/**
 * The records of a zip archive as PKWARE's APPNOTE.TXT defines them, for files handed over whole
 * (so that sizes and CRC precede the data and no data descriptor is needed): a local file header
 * before each file's deflated bytes, a central directory header per file at the end, then the
 * end of central directory record. Past 65,535 files or 4 GiB of offsets the ZIP64 forms
 * (APPNOTE 4.3.14, 4.3.15, 4.5.3) carry what the 16- and 32-bit fields cannot.
 */

/** What the central directory repeats of each file, and where its local header starts. */
export interface ZipEntry {
  readonly name: Buffer;
  readonly crc: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly offset: number;
}

const DEFLATE = 8;
/** General purpose bit 11: names are UTF-8. */
const UTF8_NAMES = 0x0800;
const VERSION = 20;
const VERSION_ZIP64 = 45;
const MAX_16 = 0xffff;
const MAX_32 = 0xffffffff;

/** MS-DOS date and time, the form zip records carry (two-second resolution, local time). */
export function dosDateTime(at: Date): { date: number; time: number } {
  const year = Math.min(Math.max(at.getFullYear(), 1980), 2107);
  return {
    date: ((year - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | (at.getSeconds() >> 1),
  };
}

export function localFileHeader(entry: ZipEntry, when: { date: number; time: number }): Buffer {
  const header = Buffer.allocUnsafe(30 + entry.name.length);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(VERSION, 4);
  header.writeUInt16LE(UTF8_NAMES, 6);
  header.writeUInt16LE(DEFLATE, 8);
  header.writeUInt16LE(when.time, 10);
  header.writeUInt16LE(when.date, 12);
  header.writeUInt32LE(entry.crc, 14);
  header.writeUInt32LE(entry.compressedSize, 18);
  header.writeUInt32LE(entry.size, 22);
  header.writeUInt16LE(entry.name.length, 26);
  header.writeUInt16LE(0, 28);
  entry.name.copy(header, 30);
  return header;
}

/** A file's record in the central directory; one whose header lies past 4 GiB names it in a ZIP64 extra field. */
export function centralDirectoryHeader(entry: ZipEntry, when: { date: number; time: number }): Buffer {
  const far = entry.offset > MAX_32;
  const extra = far ? 12 : 0;
  const header = Buffer.allocUnsafe(46 + entry.name.length + extra);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(far ? VERSION_ZIP64 : VERSION, 4);
  header.writeUInt16LE(far ? VERSION_ZIP64 : VERSION, 6);
  header.writeUInt16LE(UTF8_NAMES, 8);
  header.writeUInt16LE(DEFLATE, 10);
  header.writeUInt16LE(when.time, 12);
  header.writeUInt16LE(when.date, 14);
  header.writeUInt32LE(entry.crc, 16);
  header.writeUInt32LE(entry.compressedSize, 20);
  header.writeUInt32LE(entry.size, 24);
  header.writeUInt16LE(entry.name.length, 28);
  header.writeUInt16LE(extra, 30);
  header.fill(0, 32, 42); // comment length, disk number, internal and external attributes
  header.writeUInt32LE(far ? MAX_32 : entry.offset, 42);
  entry.name.copy(header, 46);
  if (far) {
    const at = 46 + entry.name.length;
    header.writeUInt16LE(0x0001, at);
    header.writeUInt16LE(8, at + 2);
    header.writeBigUInt64LE(BigInt(entry.offset), at + 4);
  }
  return header;
}

/**
 * The archive's last bytes: where its central directory of `count` files starts and how long it
 * is, preceded by the ZIP64 end record and its locator when a figure does not fit.
 */
export function endOfCentralDirectory(count: number, size: number, offset: number): Buffer {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, MAX_16), 8);
  end.writeUInt16LE(Math.min(count, MAX_16), 10);
  end.writeUInt32LE(Math.min(size, MAX_32), 12);
  end.writeUInt32LE(Math.min(offset, MAX_32), 16);
  if (count < MAX_16 && size < MAX_32 && offset < MAX_32) return end;
  const zip64 = Buffer.alloc(56 + 20);
  zip64.writeUInt32LE(0x06064b50, 0);
  zip64.writeBigUInt64LE(44n, 4); // the size of the rest of this record
  zip64.writeUInt16LE(VERSION_ZIP64, 12);
  zip64.writeUInt16LE(VERSION_ZIP64, 14);
  zip64.writeBigUInt64LE(BigInt(count), 24);
  zip64.writeBigUInt64LE(BigInt(count), 32);
  zip64.writeBigUInt64LE(BigInt(size), 40);
  zip64.writeBigUInt64LE(BigInt(offset), 48);
  zip64.writeUInt32LE(0x07064b50, 56); // the locator: where the ZIP64 record starts
  zip64.writeBigUInt64LE(BigInt(offset + size), 64);
  zip64.writeUInt32LE(1, 72);
  return Buffer.concat([zip64, end]);
}
