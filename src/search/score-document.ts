import type { AnalyzedDocument } from './analyze-document.js';
import type { ParsedQuery } from './parse-query.js';
import { findTerm, type TermMatch } from './sorted-terms.js';

/** A query term that is only the start of a document term ("check" in "checkout") counts less. */
export const PREFIX_STRENGTH = 0.6;
const STRENGTH: Record<TermMatch, number> = { whole: 1, prefix: PREFIX_STRENGTH, none: 0 };

/** Shares of match quality; they sum to 1. */
const WEIGHT = {
  titleCoverage: 0.35,
  bodyCoverage: 0.15,
  exactTitle: 0.25,
  phrase: 0.1,
  titleFocus: 0.15,
} as const;

/** Below this a candidate FlexSearch returned would score 0, which the contract forbids. */
const MIN_SCORE = 0.001;

/**
 * Relevance in (0, 1]. With n distinct query terms of which k occur in the document (title or
 * body, whole term or prefix), the score is (k + quality) / (n + 1), quality in [0, 1]. So a
 * document matching more of the query always outranks one matching fewer words, whatever its
 * title, and within the same k the quality decides:
 * - title coverage: how strongly each term matches the title (whole term 1, prefix 0.6);
 * - body coverage: the same for the body;
 * - exact title: the title equals the query, ignoring case, accents and punctuation;
 * - phrase: the query's terms appear consecutively (one-word queries: as a whole term);
 * - title focus: the share of the title's terms the query covers ("Checkout" beats
 *   "Guest checkout for returning customers" for "checkout").
 * Only an exact title can make quality 1, so a perfect score means the title is the query.
 */
export function scoreDocument(candidate: AnalyzedDocument, query: ParsedQuery): number {
  const { terms } = query;
  let matched = 0;
  let titleStrength = 0;
  let bodyStrength = 0;
  let wholeTerm = false;
  for (const term of terms) {
    const inTitle = findTerm(candidate.titleTerms, term);
    const inBody = findTerm(candidate.bodyTerms, term);
    if (inTitle !== 'none' || inBody !== 'none') matched += 1;
    if (inTitle === 'whole' || inBody === 'whole') wholeTerm = true;
    titleStrength += STRENGTH[inTitle];
    bodyStrength += STRENGTH[inBody];
  }
  const score = scoreOf(terms.length, {
    matched,
    titleStrength,
    bodyStrength,
    focus: titleStrength > 0 ? titleFocus(candidate.titleTerms, terms) : 0,
    exactTitle: titleStrength === terms.length && candidate.normalizedTitle === query.normalized,
    phrase:
      terms.length > 1
        ? matched === terms.length &&
          (candidate.titleSequence.includes(query.phrase) || candidate.bodySequence.includes(query.phrase))
        : wholeTerm,
  });
  return Math.max(MIN_SCORE, Math.min(1, round(score)));
}

/** What a document matches of a query of `termCount` terms: what its score is made of. */
export interface MatchParts {
  /** Query terms the title or the body holds, whole or as the start of a word. */
  readonly matched: number;
  /** Per query term, 1 where the title holds it whole, 0.6 where only as the start of a word; summed. */
  readonly titleStrength: number;
  /** The same for the body. */
  readonly bodyStrength: number;
  /** The share of the title's terms that start with a query term. */
  readonly focus: number;
  readonly exactTitle: boolean;
  readonly phrase: boolean;
}

/**
 * The most a document can score whose match is at best `parts`: a bound, rounded as scores
 * are, so a document that can at best tie the results' last score bounds to exactly that
 * score and is not scored.
 */
export const scoreBound = (termCount: number, parts: MatchParts): number => Math.min(1, round(scoreOf(termCount, parts) + FLOAT_MARGIN));

function scoreOf(termCount: number, parts: MatchParts): number {
  const quality =
    (WEIGHT.titleCoverage * parts.titleStrength) / termCount +
    (WEIGHT.bodyCoverage * parts.bodyStrength) / termCount +
    (parts.exactTitle ? WEIGHT.exactTitle : 0) +
    (parts.phrase ? WEIGHT.phrase : 0) +
    WEIGHT.titleFocus * parts.focus;
  return (parts.matched + quality) / (termCount + 1);
}

function titleFocus(titleTerms: readonly string[], queryTerms: readonly string[]): number {
  if (titleTerms.length === 0) return 0;
  let covered = 0;
  for (const titleTerm of titleTerms) {
    if (queryTerms.some((term) => titleTerm.startsWith(term))) covered += 1;
  }
  return covered / titleTerms.length;
}

/** Six decimals: stable across platforms, fine enough that unequal matches stay unequal. */
const round = (value: number): number => Math.round(value * 1e6) / 1e6;

/**
 * Added to a bound before it is rounded: far above the floating-point error of a score summed
 * in another order, far below a score's last decimal, so a bound never rounds below the score
 * of a document it bounds.
 */
const FLOAT_MARGIN = 1e-12;
