/**
 * One rewrite of the text, run only when the text holds `when` (a string every match contains):
 * most documents have no code, tables, quotes or links, and a pass that cannot match still
 * scans the whole text, line by line for the multi-line patterns.
 */
interface Pass {
  readonly find: RegExp;
  readonly to: string;
  readonly when?: readonly string[];
}

const PASSES: readonly Pass[] = [
  { find: /^\s*(```|~~~).*$/gm, to: ' ', when: ['```', '~~~'] },
  { find: /<[^>\n]+>/g, to: ' ', when: ['<'] },
  { find: /!\[([^\]]*)\]\([^)]*\)/g, to: '$1', when: [']('] },
  { find: /\[([^\]]+)\]\([^)]*\)/g, to: '$1', when: [']('] },
  { find: /\[([^\]]+)\]\[[^\]]*\]/g, to: '$1', when: [']['] },
  { find: /^\s*#{1,6}\s+/gm, to: '', when: ['#'] },
  { find: /^\s*>\s?/gm, to: '', when: ['>'] },
  { find: /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/gm, to: '' },
  { find: /^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/gm, to: ' ', when: ['---', '***', '___'] },
  { find: /^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/gm, to: ' ', when: ['|'] },
  { find: /\|/g, to: ' ', when: ['|'] },
  { find: /`+/g, to: '', when: ['`'] },
  { find: /~~|(?<![\p{L}\p{N}])[*_]+|[*_]+(?![\p{L}\p{N}])/gu, to: '', when: ['~~', '*', '_'] },
  // Every run of white space becomes one space; a lone space already is one, so it is left alone.
  { find: /\s{2,}|[^\S ]/g, to: ' ' },
];

/**
 * Markdown to plain running text, lightly: enough that a preview reads as prose, not a parser.
 * Link and image text stay, their targets go; markers of headings, lists, quotes, emphasis,
 * code and tables go; snake_case words keep their underscores.
 */
export function stripMarkdown(markdown: string): string {
  let text = markdown;
  for (const { find, to, when } of PASSES) {
    if (!when || when.some((marker) => text.includes(marker))) text = text.replace(find, to);
  }
  return text.trim();
}
