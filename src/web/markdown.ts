import { Marked, type Links } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { trusted, type SafeHtml } from './html.js';

const marked = new Marked({ gfm: true, async: false });

/**
 * Markdown written by people and assistants is untrusted: whatever raw HTML it carries,
 * only plain document markup survives; no script, no event handlers, no styles, no frames,
 * and links only to http(s), mail and in-page anchors.
 */
const POLICY: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags.filter((tag) => tag !== 'style'),
    'h1',
    'h2',
    'img',
    'del',
    'ins',
    'input',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['align', 'colspan', 'rowspan'],
    td: ['align', 'colspan', 'rowspan'],
    ol: ['start'],
    code: ['class'],
    input: ['type', 'checked', 'disabled'],
  },
  allowedClasses: { code: [/^language-[\w-]+$/] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'nofollow noopener noreferrer' } }),
    input: (tagName, attribs) =>
      attribs.type === 'checkbox'
        ? { tagName, attribs: { ...attribs, disabled: '' } }
        : { tagName: 'span', attribs: {} },
  },
  exclusiveFilter: (frame) => frame.tag === 'a' && !frame.attribs.href && !frame.text.trim(),
};

export function renderMarkdown(markdown: string): SafeHtml {
  const unsafe = marked.parse(markdown) as string;
  return trusted(sanitizeHtml(unsafe, POLICY));
}

/** Markdown source per part of a long document's rendering: the browser lays out a part only when it nears the screen. */
const PART_CHARS = 16 * 1024;
/** Past this much source a part ends at any block, heading or not. */
const MAX_PART_CHARS = 4 * PART_CHARS;

/** A long document cut for rendering: the source of each part, and the link definitions every part resolves against. */
export interface MarkdownParts {
  readonly sources: readonly string[];
  readonly links: Links;
}

/**
 * Cuts a document between top-level blocks, as the whole rendering sees them, into parts of at
 * least PART_CHARS of source, each starting at a heading when one comes before MAX_PART_CHARS:
 * an edit then changes the parts around it and, from the next heading on, the cut is the same
 * as before (a part rendered for the last version is the same part). Only the block structure is
 * read here; the inline lexing, most of the lexer's time, is each part's own.
 */
export function splitMarkdown(markdown: string): MarkdownParts {
  const lexer = new marked.Lexer(marked.defaults);
  const tokens = lexer.blockTokens(markdown.replace(/\r\n?/g, '\n'), lexer.tokens);
  const sources: string[] = [];
  let part = '';
  for (const token of tokens) {
    const cut = part.length >= MAX_PART_CHARS || (part.length >= PART_CHARS && token.type === 'heading');
    if (cut) sources.push(part);
    part = cut ? token.raw : part + token.raw;
  }
  sources.push(part);
  return { sources, links: lexer.tokens.links };
}

/** One part of a document, as renderMarkdown renders it, its reference links resolved against the whole document's. */
export function renderPart(source: string, links: Links): string {
  const lexer = new marked.Lexer(marked.defaults);
  Object.assign(lexer.tokens.links, links);
  return sanitizeHtml(marked.parser(lexer.lex(source)), POLICY);
}

/**
 * As renderMarkdown, in parts (see splitMarkdown), each sanitized on its own: raw HTML opened
 * in one part and closed in another is closed by the sanitizer at the part's end.
 */
export function renderMarkdownParts(markdown: string): string[] {
  const { sources, links } = splitMarkdown(markdown);
  return sources.map((source) => renderPart(source, links));
}

/** The title is shown in the page heading, so a body that opens with the same `# ` heading drops it. */
export function withoutTitleHeading(body: string, title: string): string {
  const match = /^\s*#[ \t]+(.+?)[ \t]*#*[ \t]*(?:\r?\n|$)/.exec(body);
  return match && match[1]!.trim() === title.trim() ? body.slice(match[0].length) : body;
}

/** A repository file's text without its YAML frontmatter: what its preview shows. */
export const withoutFrontmatter = (file: string): string =>
  file.replace(/^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/, '');
