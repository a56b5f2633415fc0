/**
 * One rewrite of the prose, run only when the text holds `when` (a string every match contains):
 * most documents have no tables, quotes, links or HTML, and a pass that cannot match still
 * scans the whole text, line by line for the multi-line patterns.
 */
interface Pass {
  readonly find: RegExp;
  readonly to: string | ((match: string, ...groups: string[]) => string);
  readonly when?: readonly string[];
}

/** A link's destination and optional title, as CommonMark writes them: `(url)`, `(<url>)`, `(url "title")`; one level of parentheses inside. */
const DESTINATION = String.raw`\(\s*(?:<[^>\n]*>|(?:[^()\s]|\([^()\s]*\))*)(?:\s+(?:"[^"]*"|'[^']*'|\([^()]*\)))?\s*\)`;

/** Entities a reader sees as one character; other named ones are dropped rather than read as words. */
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

const decodeEntity = (_match: string, name: string): string => {
  if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? ' ';
  const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
};

/** Markup of the prose, in order: what a reader does not see goes, what they read stays. */
const PASSES: readonly Pass[] = [
  // Comments, tags (attributes too, across lines) and autolinks: markup, never text.
  { find: /<!--[\s\S]*?(?:-->|$)/g, to: ' ', when: ['<!--'] },
  {
    find: /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>|<[A-Za-z][A-Za-z0-9+.-]+:[^\s<>]*>|<[^\s<>@]+@[^\s<>]+>/g,
    to: ' ',
    when: ['<'],
  },
  // Reference definitions (`[label]: url "title"`) are all target.
  {
    find: /^ {0,3}\[[^\]\n]+\]:[ \t]*\S+(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*$/gm,
    to: ' ',
    when: [']:'],
  },
  // Images keep their alt text, links their text; the targets go.
  { find: new RegExp(String.raw`!\[([^\]]*)\]${DESTINATION}`, 'g'), to: ' $1 ', when: ['](', '] ('] },
  { find: new RegExp(String.raw`\[([^\]]*)\]${DESTINATION}`, 'g'), to: '$1', when: ['](', '] ('] },
  { find: /!?\[([^\]]+)\]\[[^\]]*\]/g, to: '$1', when: [']['] },
  { find: /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/g, to: decodeEntity, when: ['&'] },
  { find: /^\s*#{1,6}\s+/gm, to: '', when: ['#'] },
  { find: /^\s*>\s?/gm, to: '', when: ['>'] },
  { find: /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/gm, to: '' },
  { find: /^\s*(?:-{3,}|\*{3,}|_{3,}|={3,})\s*$/gm, to: ' ', when: ['---', '***', '___', '==='] },
  { find: /^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/gm, to: ' ', when: ['|'] },
  { find: /\|/g, to: ' ', when: ['|'] },
  // A backslash escape shows the character it escapes.
  { find: /\\([!-/:-@[-`{-~])/g, to: '$1', when: ['\\'] },
  { find: /~~|(?<![\p{L}\p{N}])[*_]+|[*_]+(?![\p{L}\p{N}])/gu, to: '', when: ['~~', '*', '_'] },
];

/** A YAML block opening the text: frontmatter is the service's, never the document's text. */
const FRONTMATTER = /^---[ \t]*\n[\s\S]*?\n(?:---|\.\.\.)[ \t]*(?:\n|$)/;
/**
 * Code: a fenced block (to its closing fence, or the end) or a code span (a run of backticks,
 * text without backticks or blank lines, the same run). Its text stays as written; only its fences go.
 */
const CODE =
  /^ {0,3}((`|~)\2{2,})[^\n]*\n?([\s\S]*?)(?:^ {0,3}\1\2*[ \t]*$|$(?![\s\S]))|(?<!`)(`+)([^`\n]*(?:\n(?![ \t]*(?:\n|$))[^`\n]*)*)\4(?!`)/gm;
/** Code set aside while the prose is stripped: private-use characters, which no pass matches. */
const PLACEHOLDER = /\uE000(\d+)\uE001/g;

/**
 * Markdown to the text a reader sees, as plain running text for the index and previews: HTML
 * comments, tags, link and image targets, reference definitions and frontmatter go; link text,
 * image alt text and the text of code spans and fenced blocks stay (code exactly as written);
 * markers of headings, lists, quotes, emphasis, code and tables go; snake_case words keep their
 * underscores. Light, not a parser: a few regular expressions per document.
 */
export function stripMarkdown(markdown: string): string {
  let text = markdown.startsWith('---') ? markdown.replace(FRONTMATTER, '') : markdown;
  const code: string[] = [];
  if (text.includes('`') || text.includes('~~~')) {
    text = text.replace(CODE, (_match, _fence, _char, block?: string, _ticks?: string, span?: string) => {
      code.push(block ?? span ?? '');
      return `\uE000${code.length - 1}\uE001`;
    });
  }
  for (const { find, to, when } of PASSES) {
    if (!when || when.some((marker) => text.includes(marker))) text = text.replace(find, to as string);
  }
  if (code.length > 0) text = text.replace(PLACEHOLDER, (_match, index: string) => code[Number(index)]!);
  // Every run of white space becomes one space; a lone space already is one, so it is left alone.
  return text.replace(/\s{2,}|[^\S ]/g, ' ').trim();
}
