import { Document, type Encoder } from 'flexsearch';

/**
 * What FlexSearch holds per artifact: only the body's plain text, under a small integer id (the
 * artifact's slot in its index; see org-search-index.ts). Numeric ids are FlexSearch's fast
 * path: with UUID strings every posting it visits is a string hashed as an object key, and a
 * restored index holds a separate copy of each id per posting list. Titles are retrieved by
 * our own title index (title-index.ts), whose order is the ranking's.
 */
export type FlexDocument = { id: number; body: string };

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
    document: { id: 'id', index: ['body'] },
  });

/**
 * Bodies matching the query, best first by FlexSearch's order, at most `limit`: `suggest`
 * returns bodies holding only some of the query's words (the default requires all of them).
 */
export function bodyCandidates(index: Document<FlexDocument>, query: string, limit: number): { ids: number[]; truncated: boolean } {
  const ids: number[] = [];
  for (const { result } of index.search(query, { index: [{ field: 'body', limit, suggest: true }] })) {
    for (const id of result) ids.push(Number(id));
  }
  return { ids, truncated: ids.length >= limit };
}
