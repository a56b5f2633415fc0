import { FLUSH_PKT, pktLine } from './pkt-line.js';

/** The outcome of one ref of a push: null when it moved, else why not (a few words git shows in brackets). */
export interface RefStatus {
  readonly ref: string;
  readonly refused: string | null;
}

const BAND_DATA = 1;
const BAND_MESSAGE = 2;
/** Bytes of data per side-band packet: 65520 in all with side-band-64k, 1000 with side-band (less length and band). */
const bandCapacity = (capabilities: ReadonlySet<string>) => (capabilities.has('side-band-64k') ? 65515 : 995);

/**
 * What receive-pack answers (gitprotocol-pack(5), "Report Status"): messages for the pusher's
 * terminal on side-band 2, shown as `remote:` lines, then the report on side-band 1:
 * `unpack ok` (or why the pack was not taken) and `ok <ref>` or `ng <ref> <reason>` per ref.
 * A client that asked for no side-band gets the report alone.
 */
export function pushReport(
  capabilities: ReadonlySet<string>,
  report: { readonly message: string; readonly unpack: string | null; readonly refs: readonly RefStatus[] },
): Buffer {
  const status = Buffer.concat([
    pktLine(`unpack ${report.unpack ?? 'ok'}\n`),
    ...report.refs.map(({ ref, refused }) => pktLine(refused === null ? `ok ${ref}\n` : `ng ${ref} ${refused}\n`)),
    FLUSH_PKT,
  ]);
  const wanted = capabilities.has('report-status') || capabilities.has('report-status-v2') ? status : Buffer.alloc(0);
  if (!capabilities.has('side-band-64k') && !capabilities.has('side-band')) return wanted;
  const capacity = bandCapacity(capabilities);
  const band = (number: number, data: Buffer) => {
    const packets: Buffer[] = [];
    for (let at = 0; at < data.length; at += capacity) {
      const part = data.subarray(at, at + capacity);
      packets.push(Buffer.from((part.length + 5).toString(16).padStart(4, '0'), 'ascii'), Buffer.from([number]), part);
    }
    return packets;
  };
  return Buffer.concat([
    ...band(BAND_MESSAGE, Buffer.from(report.message, 'utf8')),
    ...band(BAND_DATA, wanted),
    FLUSH_PKT,
  ]);
}
