import { PREFIX_STRENGTH, scoreBound, type MatchParts } from './score-document.js';

/** Query terms tracked one bit each; a longer query counts every term as matched at its best. */
export const MASK_BITS = 31;

/** The query terms something holds: `whole`, or as the start of a longer word (`any` includes `whole`). One bit per query term. */
export interface TermMasks {
  readonly whole: number;
  readonly any: number;
}

/** The bit of the query term at `index`: none past MASK_BITS. */
export const termBit = (index: number): number => (index < MASK_BITS ? 1 << index : 0);

/**
 * A document's bound, scaled to an integer (six decimals), from what its title and body hold of
 * the query (TermMasks, as plain numbers: this runs per title a query reaches).
 */
export type ScaledBound = (
  titleWhole: number,
  titleAny: number,
  covered: number,
  titleTermCount: number,
  bodyWhole: number,
  bodyAny: number,
  exactPossible: boolean,
) => number;

const SCALE = 1e6;
/** Made per search, so kept small: a query's titles take a few dozen shapes. */
const MEMO_BITS = 8;
const MEMO_SIZE = 1 << MEMO_BITS;

/**
 * scoreBound from bit masks, memoized: a query's documents fall into a handful of match shapes,
 * and working a bound out per document cost more than the walk that finds them.
 * - `title`: the query terms the title holds; `covered` of its `titleTermCount` terms start with one.
 * - `body`: the query terms the body holds, or at best some body could.
 * - `exactPossible`: whether the title could equal the query.
 * Every masked term is counted as the phrase allows: when all are matched, the phrase may be there.
 */
export function scaledBound(termCount: number): ScaledBound {
  // An entry's last field is 1 or 2, never the 0 a new array holds: no entry matches until set.
  const memo = new Int32Array(MEMO_SIZE * 7);
  const scaled = new Float64Array(MEMO_SIZE);
  return (titleWhole, titleAny, covered, titleTermCount, bodyWhole, bodyAny, exactPossible) => {
    const exact = exactPossible ? 2 : 1;
    const at =
      (Math.imul(titleWhole ^ (titleAny << 7), 0x9e3779b1) ^
        Math.imul(bodyWhole ^ (bodyAny << 7), 0x85ebca6b) ^
        Math.imul(covered ^ (titleTermCount << 8) ^ (exact << 16), 0x27d4eb2f)) >>>
      (32 - MEMO_BITS);
    const key = at * 7;
    if (
      memo[key] !== titleWhole ||
      memo[key + 1] !== titleAny ||
      memo[key + 2] !== bodyWhole ||
      memo[key + 3] !== bodyAny ||
      memo[key + 4] !== covered ||
      memo[key + 5] !== titleTermCount ||
      memo[key + 6] !== exact
    ) {
      memo.set([titleWhole, titleAny, bodyWhole, bodyAny, covered, titleTermCount, exact], key);
      const parts = partsOf(termCount, { whole: titleWhole, any: titleAny }, covered, titleTermCount, { whole: bodyWhole, any: bodyAny }, exactPossible);
      scaled[at] = Math.round(scoreBound(termCount, parts) * SCALE);
    }
    return scaled[at]!;
  };
}

/** The bound of a document whose title matches none of the query and whose body holds at best `body`. */
export const bodyOnlyBound = (termCount: number, body: TermMasks): number =>
  scoreBound(termCount, partsOf(termCount, { whole: 0, any: 0 }, 0, 1, body, false));

function partsOf(termCount: number, title: TermMasks, covered: number, titleTermCount: number, body: TermMasks, exactPossible: boolean): MatchParts {
  if (termCount > MASK_BITS) {
    return { matched: termCount, titleStrength: termCount, bodyStrength: termCount, focus: covered / titleTermCount, exactTitle: exactPossible, phrase: true };
  }
  const titleWhole = bitCount(title.whole);
  const titleStrength = titleWhole + PREFIX_STRENGTH * bitCount(title.any & ~title.whole);
  const matched = bitCount(title.any | body.any);
  return {
    matched,
    titleStrength,
    bodyStrength: bitCount(body.whole) + PREFIX_STRENGTH * bitCount(body.any & ~body.whole),
    focus: covered / titleTermCount,
    // An exact title is made of the query's terms only, each whole.
    exactTitle: exactPossible && titleWhole === termCount && covered === titleTermCount,
    phrase: termCount > 1 ? matched === termCount : ((title.whole | body.whole) & 1) === 1,
  };
}

function bitCount(mask: number): number {
  let count = 0;
  for (let rest = mask >>> 0; rest !== 0; rest &= rest - 1) count += 1;
  return count;
}
