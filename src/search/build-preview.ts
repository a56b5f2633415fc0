import type { AnalyzedDocument } from './analyze-document.js';
import { prefixRange } from './sorted-terms.js';

const PREVIEW_CHARS = 160;
/** Context kept before the first match, so the snippet does not open on the matched word. */
const LEAD_CHARS = 40;
const ELLIPSIS = '…';

/**
 * About 160 characters of the body's plain text around the first word that matches a query
 * term (whole term or prefix, as the index matched it), cut on word boundaries, with ellipses
 * where text was left out. Without a body match (title only) the preview is the body's start.
 */
export function buildPreview(candidate: AnalyzedDocument, terms: readonly string[]): string {
  const text = candidate.plainBody;
  if (text.length <= PREVIEW_CHARS) return text;
  const match = firstMatchOffset(candidate, terms);
  const start = match > LEAD_CHARS ? wordStartAfter(text, match - LEAD_CHARS, match) : 0;
  let end = Math.min(text.length, start + PREVIEW_CHARS);
  if (end < text.length) end = wordEndBefore(text, end, Math.max(match + 1, start + 1));
  const snippet = text.slice(start, end).trim();
  return `${start > 0 ? ELLIPSIS : ''}${snippet}${end < text.length ? ELLIPSIS : ''}`;
}

/** The earliest body offset of a term that a query term equals or starts; -1 when none. */
function firstMatchOffset({ bodyTerms, bodyTermOffsets }: AnalyzedDocument, terms: readonly string[]): number {
  let first = -1;
  for (const term of terms) {
    const { from, to } = prefixRange(bodyTerms, term);
    for (let at = from; at < to; at += 1) {
      const offset = bodyTermOffsets[at]!;
      if (first === -1 || offset < first) first = offset;
    }
  }
  return first;
}

/** The first word start at or after `from`, but never past `limit` (the match itself). */
function wordStartAfter(text: string, from: number, limit: number): number {
  const space = text.indexOf(' ', from);
  return space === -1 || space + 1 > limit ? limit : space + 1;
}

/** The last word end at or before `to`, but never before `floor`. */
function wordEndBefore(text: string, to: number, floor: number): number {
  if (text[to] === ' ') return to;
  const space = text.lastIndexOf(' ', to);
  return space < floor ? to : space;
}
