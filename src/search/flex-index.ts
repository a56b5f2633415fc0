import { Document, type Encoder } from 'flexsearch';

/**
 * What FlexSearch holds per artifact: only the searchable text, under a small integer id (the
 * artifact's slot in its index; see org-search-index.ts). Numeric ids are FlexSearch's fast
 * path: with UUID strings every posting it visits is a string hashed as an object key, and a
 * restored index holds a separate copy of each id per posting list.
 */
export type FlexDocument = { id: number; title: string; body: string };

/**
 * The FlexSearch configuration of an organization's index: `forward` tokenizing so a query word
 * also finds longer words it starts ("notif" -> "notifications"). `fastupdate` stays off: in
 * 0.8.212 it makes `search` throw once the last document holding a word was updated or removed
 * (test "replaces a document on upsert"); without it an update scans the index, tens of
 * milliseconds at 10,000 artifacts, paid once per commit.
 */
export const createFlexIndex = (encoder: Encoder): Document<FlexDocument> =>
  new Document<FlexDocument>({
    encoder,
    tokenize: 'forward',
    fastupdate: false,
    document: { id: 'id', index: ['title', 'body'] },
  });

export interface CandidateLimits {
  readonly title: number;
  readonly body: number;
}

/**
 * Candidate retrieval: `suggest` returns documents matching only some of the query's words
 * (the default requires all of them in one field, which would miss "checkout" in the title
 * with "payments" in the body). Ids come back per field, best first, at most the field's limit.
 */
export function searchCandidates(
  index: Document<FlexDocument>,
  query: string,
  limits: CandidateLimits,
): { ids: Set<number>; truncated: boolean } {
  const ids = new Set<number>();
  let truncated = false;
  // Per-field options replace the top-level ones for that field, so each repeats `suggest`.
  const fields = index.search(query, {
    index: [
      { field: 'title', limit: limits.title, suggest: true },
      { field: 'body', limit: limits.body, suggest: true },
    ],
  });
  for (const { field, result } of fields) {
    for (const id of result) ids.add(Number(id));
    if (result.length >= (field === 'title' ? limits.title : limits.body)) truncated = true;
  }
  return { ids, truncated };
}
