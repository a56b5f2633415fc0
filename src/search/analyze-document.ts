import type { Encoder } from 'flexsearch';
import { boundedMemo } from '../bounded-memo.js';
import { normalizeText } from './encoder.js';
import { sortedTerms, type SortedTerms } from './sorted-terms.js';
import { stripMarkdown } from './strip-markdown.js';
import type { DocumentFacts } from './types.js';

/** A document with the derived forms ranking and previews need, computed once per upsert. */
export interface AnalyzedDocument {
  readonly doc: DocumentFacts;
  /** The body as plain text without its `# Title` line: what FlexSearch indexes and previews show. */
  readonly plainBody: string;
  readonly titleTerms: SortedTerms;
  readonly bodyTerms: SortedTerms;
  /** Where in `plainBody` each of `bodyTerms` first occurs (same index). */
  readonly bodyTermOffsets: Int32Array;
  /** Encoded terms in text order, space-delimited and padded, for phrase matching. */
  readonly titleSequence: string;
  readonly bodySequence: string;
  readonly normalizedTitle: string;
  /** Lower-cased title for the deterministic tie-break. */
  readonly sortTitle: string;
}

/** Letters, digits and combining marks: what the words the encoder would split the text into are made of. */
const WORD_CHARACTERS = '\\p{L}\\p{N}\\p{M}';
/** A word as the encoder would split it; highlighting (match-ranges.ts) finds words the same way. */
export const WORD = new RegExp(`[${WORD_CHARACTERS}]+`, 'gu');
/** What separates two words. */
const BETWEEN_WORDS = new RegExp(`[^${WORD_CHARACTERS}]+`, 'u');
const TITLE_HEADING = /^\s*#[ \t][^\n]*(?:\n|$)/;

/** Encodes word by word with a memo: vocabularies are small, and encoding a word is not. */
export function createWordEncoder(encoder: Encoder, capacity = 50_000): (word: string) => readonly string[] {
  return boundedMemo(capacity, (word: string): readonly string[] => [...encoder.encode(word)]);
}

/** A title's distinct encoded terms, sorted: what ranking and the title index match against. */
export const titleTermsOf = (encoder: Encoder, title: string): SortedTerms => sortedTerms(encoder.encode(title));

/** The body as plain text without its `# Title` line. */
export const plainBodyOf = (body: string): string => stripMarkdown(body.replace(TITLE_HEADING, ''));

/** Each encoded term of `text` in order, with the offset of the word it came from. */
function eachTerm(encodeWord: (word: string) => readonly string[], text: string, visit: (term: string, offset: number) => void): void {
  for (const word of text.matchAll(WORD)) for (const term of encodeWord(word[0])) visit(term, word.index);
}

/**
 * The distinct encoded terms of a text, in the order they first occur, as the body index takes
 * them. Split, not matched: a cold start indexes every body, and a match object per word was
 * much of what the index worker's garbage collector then had to sweep.
 */
export function distinctEncodedTerms(encodeWord: (word: string) => readonly string[], text: string): string[] {
  const terms = new Set<string>();
  for (const word of text.split(BETWEEN_WORDS)) {
    if (word !== '') for (const term of encodeWord(word)) terms.add(term);
  }
  return [...terms];
}

export function analyzeDocument(
  encoder: Encoder,
  encodeWord: (word: string) => readonly string[],
  doc: DocumentFacts,
  plainBody: string,
): AnalyzedDocument {
  const firstOffsets = new Map<string, number>();
  const sequence: string[] = [];
  eachTerm(encodeWord, plainBody, (term, offset) => {
    sequence.push(term);
    if (!firstOffsets.has(term)) firstOffsets.set(term, offset);
  });
  const bodyTerms = sortedTerms(firstOffsets.keys());
  const titleEncoded = encoder.encode(doc.title);
  return {
    doc,
    plainBody,
    titleTerms: sortedTerms(titleEncoded),
    bodyTerms,
    bodyTermOffsets: Int32Array.from(bodyTerms, (term) => firstOffsets.get(term)!),
    titleSequence: ` ${titleEncoded.join(' ')} `,
    bodySequence: ` ${sequence.join(' ')} `,
    normalizedTitle: normalizeText(doc.title),
    sortTitle: doc.title.toLowerCase(),
  };
}
