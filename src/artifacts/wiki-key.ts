const WIKI_PREFIX = 'wiki:';

/**
 * The key a `[[Title]]` link and an artifact's title meet at (case and runs of spaces do not
 * matter), kept beside artifact ids among a body's link targets.
 */
export const wikiKey = (title: string): string => `${WIKI_PREFIX}${title.trim().replace(/\s+/g, ' ').toLowerCase()}`;

/** The title a wiki key was made from, in lower case; undefined for any other link target. */
export const wikiTitleOf = (key: string): string | undefined =>
  key.startsWith(WIKI_PREFIX) ? key.slice(WIKI_PREFIX.length) : undefined;
