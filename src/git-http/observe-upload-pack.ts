import { Transform } from 'node:stream';
import { PktLineReader } from './pkt-line.js';

/** What one upload-pack exchange carried, learned while it streams through. */
export interface UploadPackSummary {
  /** The first object the client wants; undefined for requests that transfer nothing (ls-refs). */
  firstWant?: string;
  /** A client that already has objects is fetching; one with none is cloning. */
  hasHaves: boolean;
  /** Only the last round of a negotiation sends the pack; earlier rounds only acknowledge. */
  sentPack: boolean;
}

/**
 * Pass-through streams that read the pkt-lines of an upload-pack request and of its response
 * (protocol v0 or v2) on their way, so the exchange can be audited once, as a clone or a
 * fetch, without buffering it.
 */
export function observeUploadPack(): { request: Transform; response: Transform; summary: UploadPackSummary } {
  const summary: UploadPackSummary = { hasHaves: false, sentPack: false };
  const request = tap(
    new PktLineReader((payload) => {
      const line = payload.toString('latin1');
      if (line.startsWith('want ') && summary.firstWant === undefined) {
        summary.firstWant = line.slice(5).split(/[\s\0]/, 1)[0];
      } else if (line.startsWith('have ')) {
        summary.hasHaves = true;
      }
    }),
  );
  const responseReader = new PktLineReader(
    (payload) => {
      // v2 opens the pack with a "packfile" section; v0 sends it on side-band 1.
      if (payload.toString('latin1', 0, 8) === 'packfile' || payload.toString('latin1', 0, 5) === '\x01PACK') {
        summary.sentPack = true;
      }
    },
    (unframed) => {
      if (unframed.toString('latin1', 0, 4) === 'PACK') summary.sentPack = true;
    },
  );
  const response = tap(responseReader, () => summary.sentPack);
  return { request, response, summary };
}

function tap(reader: PktLineReader, done: () => boolean = () => false): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (!done()) reader.push(chunk);
      callback(null, chunk);
    },
  });
}
