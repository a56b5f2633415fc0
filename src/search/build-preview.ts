import type { Encoder } from 'flexsearch';
import { stripMarkdown } from './strip-markdown.js';

const PREVIEW_CHARS = 160;
/** Context kept before the first match, so the snippet does not open on the matched word. */
const LEAD_CHARS = 40;
const ELLIPSIS = '…';
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * About 160 characters of the body's plain text around the first word that matches a query
 * term (whole term or prefix, after the same encoding the index uses), cut on word boundaries,
 * with ellipses where text was left out. The body's leading `# Title` line is skipped: the
 * title is shown beside the preview anyway. Without a body match the preview is the body start.
 */
export function buildPreview(encoder: Encoder, body: string, terms: readonly string[]): string {
  const text = stripMarkdown(body.replace(/^\s*#\s[^\n]*\n?/, ''));
  if (text.length <= PREVIEW_CHARS) return text;
  const match = firstMatchOffset(encoder, text, terms);
  const start = match > LEAD_CHARS ? wordStartAfter(text, match - LEAD_CHARS, match) : 0;
  let end = Math.min(text.length, start + PREVIEW_CHARS);
  if (end < text.length) end = wordEndBefore(text, end, Math.max(match + 1, start + 1));
  const snippet = text.slice(start, end).trim();
  return `${start > 0 ? ELLIPSIS : ''}${snippet}${end < text.length ? ELLIPSIS : ''}`;
}

function firstMatchOffset(encoder: Encoder, text: string, terms: readonly string[]): number {
  for (const word of text.matchAll(WORD)) {
    for (const encoded of encoder.encode(word[0])) {
      if (terms.some((term) => encoded.startsWith(term))) return word.index;
    }
  }
  return -1;
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
