import { Transform } from 'node:stream';
import { PktLineReader } from './pkt-line.js';

/** `PACK`, a version and the object count, big-endian: the first 12 bytes of every pack. */
const PACK_HEADER_BYTES = 12;

/**
 * A pass-through for a receive-pack request (ref commands as pkt-lines, then the raw pack) that
 * reads the pack header's object count on its way and calls `tooMany` when it passes `max`,
 * before git has unpacked a single object.
 */
export function watchPackHeader(max: number, tooMany: (count: number) => void): Transform {
  let header: Buffer | undefined;
  const take = (bytes: Buffer) => {
    header = Buffer.concat([header ?? Buffer.alloc(0), bytes]);
    if (header.length < PACK_HEADER_BYTES) return;
    if (header.toString('latin1', 0, 4) === 'PACK') {
      const count = header.readUInt32BE(8);
      if (count > max) tooMany(count);
    }
    done = true;
  };
  let done = false;
  const reader = new PktLineReader(() => undefined, take);
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (!done) {
        if (header) take(chunk);
        else reader.push(chunk);
      }
      callback(null, chunk);
    },
  });
}
