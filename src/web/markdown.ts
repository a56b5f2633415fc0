import { Marked } from 'marked';
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

/**
 * As renderMarkdown, in parts of whole top-level blocks, each sanitized on its own. Reference
 * links resolve across parts (every part gets the document's definitions); raw HTML opened in one
 * part and closed in another is closed by the sanitizer at the part's end.
 */
export function renderMarkdownParts(markdown: string): string[] {
  const tokens = marked.lexer(markdown);
  const parts: string[] = [];
  let start = 0;
  let chars = 0;
  const flush = (end: number) => {
    const part = Object.assign(tokens.slice(start, end), { links: tokens.links });
    parts.push(sanitizeHtml(marked.parser(part), POLICY));
    start = end;
    chars = 0;
  };
  tokens.forEach((token, i) => {
    chars += token.raw.length;
    if (chars >= PART_CHARS) flush(i + 1);
  });
  if (start < tokens.length || parts.length === 0) flush(tokens.length);
  return parts;
}

/** The title is shown in the page heading, so a body that opens with the same `# ` heading drops it. */
export function withoutTitleHeading(body: string, title: string): string {
  const match = /^\s*#[ \t]+(.+?)[ \t]*#*[ \t]*(?:\r?\n|$)/.exec(body);
  return match && match[1]!.trim() === title.trim() ? body.slice(match[0].length) : body;
}
