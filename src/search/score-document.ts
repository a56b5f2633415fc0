import type { AnalyzedDocument } from './analyze-document.js';
import type { ParsedQuery } from './parse-query.js';
import { findTerm, type TermMatch } from './sorted-terms.js';

/** A query term that is only the start of a document term ("check" in "checkout") counts less. */
const STRENGTH: Record<TermMatch, number> = { whole: 1, prefix: 0.6, none: 0 };

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
  const phrase =
    terms.length > 1
      ? matched === terms.length &&
        (candidate.titleSequence.includes(query.phrase) || candidate.bodySequence.includes(query.phrase))
      : wholeTerm;
  const exactTitle = titleStrength === terms.length && candidate.normalizedTitle === query.normalized;
  const quality =
    (WEIGHT.titleCoverage * titleStrength) / terms.length +
    (WEIGHT.bodyCoverage * bodyStrength) / terms.length +
    (exactTitle ? WEIGHT.exactTitle : 0) +
    (phrase ? WEIGHT.phrase : 0) +
    (titleStrength > 0 ? WEIGHT.titleFocus * titleFocus(candidate.titleTerms, terms) : 0);
  const score = (matched + quality) / (terms.length + 1);
  return Math.max(MIN_SCORE, Math.min(1, round(score)));
}

/** What the whole index can match of a query: the most any one document can. */
export interface QueryReach {
  readonly termCount: number;
  /** Query terms some title or body holds, whole or as the start of a word. */
  readonly matchable: number;
  /** The most body coverage can add up to: per term 1 if some body holds it whole, 0.6 if only words it starts. */
  readonly bodyStrength: number;
  /** Whether some body holds a whole query term: for a one-term query, what its phrase is. */
  readonly bodyWhole: boolean;
}

/** The QueryReach of `terms`, from how bodies can match each and whether any title or body holds it. */
export function queryReach(terms: readonly string[], bodyMatch: (term: string) => TermMatch, reachable: (term: string) => boolean): QueryReach {
  let bodyStrength = 0;
  let bodyWhole = false;
  for (const term of terms) {
    const match = bodyMatch(term);
    bodyStrength += STRENGTH[match];
    if (match === 'whole') bodyWhole = true;
  }
  return { termCount: terms.length, matchable: terms.filter(reachable).length, bodyStrength, bodyWhole };
}

/**
 * The most a document can score for a query when only what its title matches is known: every
 * matchable term matched, the body covering each as well as any body can, the phrase found
 * when every term can match (one term: when it can be whole, in the title or in some body).
 * Rounded as scores are, so a title that can at best tie the results' last score bounds to
 * exactly that score, and is not scored.
 */
export function scoreBound(reach: QueryReach, title: { readonly strength: number; readonly focus: number }): number {
  const { termCount, matchable } = reach;
  const phrase = termCount > 1 ? matchable === termCount : title.strength === STRENGTH.whole || reach.bodyWhole;
  const quality =
    (WEIGHT.titleCoverage * title.strength) / termCount +
    (WEIGHT.bodyCoverage * reach.bodyStrength) / termCount +
    // An exact title is made of the query's terms only: every title term is covered.
    (title.strength === termCount && title.focus === 1 ? WEIGHT.exactTitle : 0) +
    (phrase ? WEIGHT.phrase : 0) +
    (title.strength > 0 ? WEIGHT.titleFocus * title.focus : 0);
  return Math.min(1, round((matchable + quality) / (termCount + 1) + FLOAT_MARGIN));
}

/** The most a document whose title matches none of the query can score. */
export const bodyOnlyBound = (reach: QueryReach): number => scoreBound(reach, { strength: 0, focus: 0 });

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
