/** Git's pkt-line framing: four hex digits of length (including themselves), then the payload. */
export function pktLine(payload: string): Buffer {
  const body = Buffer.from(payload, 'utf8');
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, '0'), 'ascii'), body]);
}

export const FLUSH_PKT = Buffer.from('0000', 'ascii');

/**
 * Reads pkt-lines from a byte stream fed in arbitrary chunks and hands each payload to
 * `onLine`. Special packets (flush, delimiter, response-end) carry no payload and are skipped.
 * Bytes that are not pkt-lines (a raw pack after the negotiation) go once to `onUnframed`, and
 * reading stops there. Only the bytes of one unfinished packet are held at a time.
 */
export class PktLineReader {
  private pending: Buffer = Buffer.alloc(0);
  private broken = false;

  constructor(
    private readonly onLine: (payload: Buffer) => void,
    private readonly onUnframed: (bytes: Buffer) => void = () => {},
  ) {}

  push(chunk: Buffer): void {
    if (this.broken) return;
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    let offset = 0;
    while (this.pending.length - offset >= 4) {
      const header = this.pending.toString('ascii', offset, offset + 4);
      const length = Number.parseInt(header, 16);
      if (!/^[0-9a-f]{4}$/i.test(header) || length === 3) {
        this.broken = true;
        this.onUnframed(this.pending.subarray(offset));
        this.pending = Buffer.alloc(0);
        return;
      }
      if (length < 4) {
        offset += 4;
        continue;
      }
      if (this.pending.length - offset < length) break;
      this.onLine(this.pending.subarray(offset + 4, offset + length));
      offset += length;
    }
    this.pending = Buffer.from(this.pending.subarray(offset));
  }
}
