import { buffersOf, packText, unpackText } from '../threads/packed-text.js';
import type { IndexRequest } from './index-host.js';

/**
 * A request as it crosses to the index worker: a large document's body as UTF-8 bytes that are
 * moved, not copied. Posting a 1 MiB body as a string held the event loop 10-25 ms on a
 * 2-core machine; encoding it takes about 1 ms.
 */
export type WireIndexRequest =
  | Exclude<IndexRequest, { op: 'upsert' }>
  | {
      readonly op: 'upsert';
      readonly orgId: string;
      readonly doc: Omit<Extract<IndexRequest, { op: 'upsert' }>['doc'], 'body'> & {
        readonly body: string | Uint8Array;
      };
    };

/** Bodies shorter than this cross as they are: encoding would cost more than it saves. */
const PACKED_BODY_CHARS = 64 * 1024;

export function toWire(request: IndexRequest): { wire: WireIndexRequest; transfer: ArrayBuffer[] } {
  if (request.op !== 'upsert' || request.doc.body.length < PACKED_BODY_CHARS) return { wire: request, transfer: [] };
  const body = packText(request.doc.body);
  return { wire: { ...request, doc: { ...request.doc, body } }, transfer: buffersOf(body) };
}

export function fromWire(wire: WireIndexRequest): IndexRequest {
  if (wire.op !== 'upsert' || typeof wire.doc.body === 'string') return wire as IndexRequest;
  return { ...wire, doc: { ...wire.doc, body: unpackText(wire.doc.body) } };
}
