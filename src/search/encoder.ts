import { Encoder } from 'flexsearch';

/**
 * Function words only. FlexSearch's English pack also drops words such as "new", "time", "use"
 * and "work", which carry meaning in product documents ("new user", "time zone").
 */
const STOPWORDS = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'been', 'but', 'by', 'can', 'do', 'does', 'for', 'from',
  'had', 'has', 'have', 'he', 'her', 'his', 'how', 'i', 'if', 'in', 'into', 'is', 'it', 'its', 'me',
  'my', 'nor', 'of', 'on', 'or', 'our', 'she', 'so', 'than', 'that', 'the', 'their', 'them', 'then',
  'there', 'these', 'they', 'this', 'those', 'to', 'was', 'we', 'were', 'what', 'when', 'where',
  'which', 'while', 'who', 'whom', 'why', 'will', 'with', 'would', 'you', 'your',
]);

/**
 * Light English inflection folding, applied once per term (FlexSearch's stemmer repeats until
 * nothing changes, which turns "organization" into "organ"). Plurals and -ing only, so
 * "payments" finds "payment" and "onboarding" finds "onboard" without merging unrelated words.
 * Letters are already de-duplicated here ("access" is "aces").
 */
const INFLECTIONS: [RegExp, string][] = [
  [/(?<=\p{L}{2})ies$/u, 'y'],
  [/(?<=\p{L}{2}(?:s|x|ch|sh))es$/u, ''],
  [/(?<=\p{L}{3})s$/u, ''],
  [/(?<=\p{L}{3})ing$/u, ''],
];

/**
 * The one text encoder for an organization's index: FlexSearch uses it to index and query, and
 * the ranking uses it too, so "matches" means the same thing in both places.
 */
export const createTextEncoder = (): Encoder =>
  new Encoder({
    normalize: true,
    dedupe: true,
    numeric: false,
    minlength: 2,
    filter: STOPWORDS,
    // The typings declare one pair; the implementation takes a flat list of pairs.
    replacer: INFLECTIONS.flat() as [RegExp, string],
  });

/** Case-, accent- and punctuation-insensitive form of a text, for exact comparisons. */
export const normalizeText = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Encoded terms as one space-delimited string, so term and phrase tests are substring tests. */
export const termSequence = (encoder: Encoder, text: string): string => ` ${encoder.encode(text).join(' ')} `;
