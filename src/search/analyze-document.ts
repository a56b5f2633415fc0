import { eachTerm, termCounts, termsOf } from './analyzer.js';
import { stripMarkdown } from './strip-markdown.js';
import type { DocumentFacts } from './types.js';

/** A document with where each of its terms occurs: what proximity and previews need, made when it is first a top candidate. */
export interface AnalyzedDocument {
  readonly doc: DocumentFacts;
  /** The body as plain text without its `# Title` line: what previews show. */
  readonly plainBody: string;
  /** Each term's positions in the document's term sequence: the title's terms, then the body's. */
  readonly positions: ReadonlyMap<string, readonly number[]>;
  /** By position, the offset in `plainBody` of the word it came from; -1 for a title term. */
  readonly offsets: Int32Array;
  /** How many of the positions are the title's (they come first). */
  readonly titleTerms: number;
  /** How often each term occurs in the aliases, which count in the title field as the title's terms do. */
  readonly aliasTerms: ReadonlyMap<string, number>;
}

const NO_ALIAS_TERMS: ReadonlyMap<string, number> = new Map();

const TITLE_HEADING = /^\s*#[ \t][^\n]*(?:\n|$)/;

/** The body as plain text without its `# Title` line: link targets and markdown markers are neither found nor ranked. */
export const plainBodyOf = (body: string): string => stripMarkdown(body.replace(TITLE_HEADING, ''));

/** What the index counts of a document: its title's terms, each alias's and its body's, in order. */
export function documentTerms(
  title: string,
  aliases: readonly string[],
  plainBody: string,
): { title: string[]; aliases: string[][]; body: string[] } {
  return { title: termsOf(title), aliases: aliases.map(termsOf), body: termsOf(plainBody) };
}

export function analyzeDocument(doc: DocumentFacts, plainBody: string, aliases: readonly string[]): AnalyzedDocument {
  const positions = new Map<string, number[]>();
  const offsets: number[] = [];
  const visit = (term: string, offset: number) => {
    const at = positions.get(term);
    if (at) at.push(offsets.length);
    else positions.set(term, [offsets.length]);
    offsets.push(offset);
  };
  eachTerm(doc.title, (term) => visit(term, -1));
  const titleTerms = offsets.length;
  eachTerm(plainBody, visit);
  const aliasTerms = aliases.length > 0 ? termCounts(aliases.flatMap(termsOf)) : NO_ALIAS_TERMS;
  return { doc, plainBody, positions, offsets: Int32Array.from(offsets), titleTerms, aliasTerms };
}
