const LABEL = '**Aliases:**';
const LINE = /^[ \t]*\*\*Aliases:\*\*([^\n]*)/m;

/** The line an imported document keeps its frontmatter aliases in, under its heading. */
export const aliasesLine = (aliases: readonly string[]): string => `${LABEL} ${aliases.join(', ')}`;

/**
 * The other names a document's first `**Aliases:**` line gives it, comma-separated as
 * `aliasesLine` writes them; none without the line. Search finds a document by these as by its
 * title, so an edit that changes the line changes what finds it.
 */
export function statedAliases(body: string): string[] {
  // Most documents have no such line: a plain scan spares them the pattern's line-by-line search.
  if (!body.includes(LABEL)) return [];
  const match = LINE.exec(body);
  if (!match) return [];
  return match[1]!
    .split(',')
    .map((alias) => alias.trim())
    .filter(Boolean);
}
