import stem from 'wink-porter2-stemmer';
import { boundedMemo } from '../bounded-memo.js';
import { STOPWORDS } from './stopwords.js';

/** Letters, digits and combining marks: what words are made of, in documents and queries alike. */
const WORD_CHARACTERS = '\\p{L}\\p{N}\\p{M}';
/** A word of a text; highlighting (match-ranges.ts) splits text the same way. */
export const WORD = new RegExp(`[${WORD_CHARACTERS}]+`, 'gu');
const DIGIT = /\p{N}/u;

/** Lower case without accents: "Café" and "cafe" are one word. */
export const foldWord = (word: string): string =>
  word
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/**
 * A word's term: folded and stemmed (Porter2, the Snowball English stemmer), so "flexible" and
 * "flexibility" meet; null for a stopword or a lone letter. Remembered: vocabularies are
 * small, and stemming a word is not cheap.
 */
export const termOfWord: (word: string) => string | null = boundedMemo(100_000, (word: string): string | null => {
  const folded = foldWord(word);
  if (STOPWORDS.has(folded) || (folded.length < 2 && !DIGIT.test(folded))) return null;
  return stem(folded);
});

/** Each term of `text` in order, with the offset of the word it came from. */
export function eachTerm(text: string, visit: (term: string, offset: number) => void): void {
  for (const word of text.matchAll(WORD)) {
    const term = termOfWord(word[0]);
    if (term !== null) visit(term, word.index);
  }
}

/** The terms of `text` in order. */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  eachTerm(text, (term) => terms.push(term));
  return terms;
}

/** How often each term occurs in `terms`, in order of first occurrence. */
export function termCounts(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/** Case-, accent- and punctuation-insensitive form of a text, for exact comparisons. */
export const normalizeText = (text: string): string =>
  foldWord(text)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
