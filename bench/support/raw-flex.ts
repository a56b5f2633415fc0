import { Document, Encoder } from 'flexsearch';

export type RawDocument = { id: number; title: string; body: string };

/**
 * The FlexSearch baseline: an artifact's title and body indexed as FlexSearch does out of the
 * box, with a normalizing encoder and `forward` tokenizing, and nothing of ours around it.
 */
export const rawFlexIndex = (): Document<RawDocument> =>
  new Document<RawDocument>({
    encoder: new Encoder({ normalize: true, dedupe: true, minlength: 2 }),
    tokenize: 'forward',
    fastupdate: false,
    document: { id: 'id', index: ['title', 'body'] },
  });
