import { Document } from 'flexsearch';
import { createTextEncoder } from '../../src/search/encoder.js';

export type RawDocument = { id: number; title: string; body: string };

/**
 * The FlexSearch baseline: an artifact's title and body indexed as FlexSearch does out of the
 * box, with our encoder and `forward` tokenizing, and nothing of ours around it.
 */
export const rawFlexIndex = (): Document<RawDocument> =>
  new Document<RawDocument>({
    encoder: createTextEncoder(),
    tokenize: 'forward',
    fastupdate: false,
    document: { id: 'id', index: ['title', 'body'] },
  });
