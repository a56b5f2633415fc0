/**
 * NLTK's English stopword list (nltk_data corpora/stopwords/english, the 179 words it has held
 * since 2018), in its own order: a fixed, standard list, so that "content words only" means
 * the same in every run and for every engine.
 */
export const NLTK_ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  `i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself
  yourselves he him his himself she she's her hers herself it it's its itself they them their
  theirs themselves what which who whom this that that'll these those am is are was were be been
  being have has had having do does did doing a an the and but if or because as until while of at
  by for with about against between into through during before after above below to from up down
  in out on off over under again further then once here there when where why how all any both
  each few more most other some such no nor not only own same so than too very s t can will just
  don don't should should've now d ll m o re ve y ain aren aren't couldn couldn't didn didn't
  doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma mightn mightn't mustn mustn't
  needn needn't shan shan't shouldn shouldn't wasn wasn't weren weren't won won't wouldn wouldn't`.split(/\s+/),
);

/** Words with their inner apostrophes (`don't`, `user's`), which the list is written with. */
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

/** The query's words that are not stopwords, in order, joined by spaces; punctuation goes. */
export function contentWords(query: string, stopwords: ReadonlySet<string> = NLTK_ENGLISH_STOPWORDS): string {
  return (query.match(WORD) ?? []).filter((word) => !stopwords.has(word.toLowerCase().replace(/’/g, "'"))).join(' ');
}
