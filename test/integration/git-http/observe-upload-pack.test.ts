import { describe, expect, it } from 'vitest';
import { observeUploadPack } from '../../../src/git-http/observe-upload-pack.js';
import { FLUSH_PKT, pktLine } from '../../../src/git-http/pkt-line.js';

const WANT = 'a'.repeat(40);
const HAVE = 'b'.repeat(40);

/** Feeds bytes through a tap in pieces of `size`, as a socket might deliver them. */
async function feed(stream: NodeJS.ReadWriteStream, bytes: Buffer, size: number): Promise<Buffer> {
  const out: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => out.push(chunk));
  for (let i = 0; i < bytes.length; i += size) stream.write(bytes.subarray(i, i + size));
  stream.end();
  await new Promise((resolve) => stream.on('end', resolve));
  return Buffer.concat(out);
}

describe('observeUploadPack', () => {
  it('reads a v0 clone request split at every byte and passes it through unchanged', async () => {
    const { request, summary } = observeUploadPack();
    const body = Buffer.concat([pktLine(`want ${WANT} multi_ack side-band-64k\n`), FLUSH_PKT, pktLine('done\n')]);
    expect(await feed(request, body, 1)).toEqual(body);
    expect(summary).toMatchObject({ firstWant: WANT, hasHaves: false });
  });

  it('tells a v2 fetch by its have lines', async () => {
    const { request, summary } = observeUploadPack();
    const body = Buffer.concat([
      pktLine('command=fetch\n'),
      Buffer.from('0001'),
      pktLine(`want ${WANT}\n`),
      pktLine(`have ${HAVE}\n`),
      FLUSH_PKT,
    ]);
    await feed(request, body, 7);
    expect(summary).toMatchObject({ firstWant: WANT, hasHaves: true });
  });

  it('sees no pack in a negotiation round', async () => {
    const { response, summary } = observeUploadPack();
    await feed(response, Buffer.concat([pktLine('acknowledgments\n'), pktLine('NAK\n'), FLUSH_PKT]), 3);
    expect(summary.sentPack).toBe(false);
  });

  it('sees the pack of a v2 response, of a v0 side-band response, and of a raw v0 response', async () => {
    const v2 = observeUploadPack();
    await feed(v2.response, Buffer.concat([pktLine('packfile\n'), pktLine('\x01PACK')]), 5);
    const sideBand = observeUploadPack();
    await feed(sideBand.response, Buffer.concat([pktLine('NAK\n'), pktLine('\x01PACK\0\0\0\x02')]), 2);
    const raw = observeUploadPack();
    await feed(raw.response, Buffer.concat([pktLine('NAK\n'), Buffer.from('PACK\0\0\0\x02')]), 64);
    expect([v2.summary.sentPack, sideBand.summary.sentPack, raw.summary.sentPack]).toEqual([true, true, true]);
  });
});
