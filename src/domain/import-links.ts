/**
 * Links between the files of one import, made into links between the artifacts they become.
 * Pure: the caller knows which file became which artifact (ids are chosen before anything is
 * written, so a file may link to one imported after it, in the same commit as today).
 */
import type { LinkLeftAsWritten } from './types.js';

/** What the rewriter knows of the import: files by path, and names a wiki link may use. */
export interface LinkTargets {
  /** The web address of the artifact a file (a path relative to the directory imported) became. */
  urlOf(path: string): string | undefined;
  /** The file a `[[name]]` names: a title, an alias or a file name (matched without case). */
  fileNamed(name: string): string | undefined;
}

export interface RewrittenBody {
  readonly body: string;
  readonly rewritten: number;
  readonly unresolved: readonly LinkLeftAsWritten[];
}

const dirname = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf('/')));

/** `a/b/../c.md` -> `a/c.md`; undefined when it climbs out of the directory imported. */
export function normalizedPath(path: string): string | undefined {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

/** A scheme (`https:`, `mailto:`) or `//host`: a web link, never touched. */
const ABSOLUTE = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;
const MARKDOWN_FILE = /\.(?:md|markdown)$/i;
const HAS_EXTENSION = /\.[a-z0-9]{1,8}$/i;

/** GitHub's heading anchors, which the web application gives its headings too. */
export const headingAnchor = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** The artifact URL a relative link from `from` names, or why it stays as written. */
function resolveRelative(from: string, target: string, files: LinkTargets): string | LinkLeftAsWritten | undefined {
  if (!target || target.startsWith('#') || ABSOLUTE.test(target)) return undefined;
  const cut = target.search(/[?#]/);
  const file = decoded(cut < 0 ? target : target.slice(0, cut));
  const anchor = cut < 0 ? '' : target.slice(cut).replace(/^\?[^#]*/, '');
  const base = file.startsWith('/') ? file : `${dirname(from)}/${file}`;
  const path = normalizedPath(base);
  const isAsset = HAS_EXTENSION.test(file) && !MARKDOWN_FILE.test(file);
  if (path === undefined) return { target, why: isAsset ? 'asset' : 'outside the import' };
  const candidates = file.endsWith('/')
    ? [`${path}/index.md`, `${path}/README.md`]
    : MARKDOWN_FILE.test(path)
      ? [path]
      : [`${path}.md`, path, `${path}/index.md`, `${path}/README.md`];
  for (const candidate of candidates) {
    const url = files.urlOf(candidate);
    if (url) return `${url}${anchor}`;
  }
  return { target, why: isAsset ? 'asset' : 'outside the import' };
}

/** Fenced code blocks and code spans: links inside them are text, never rewritten. */
const CODE =
  /^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:\n {0,3}\2[`~]*[ \t]*(?=\n|$)|$(?![\s\S]))|(`+)(?!`)[\s\S]*?(?<!`)\3(?!`)/gm;
/** `[text](target "title")` and `![alt](target)`: the target (in `<…>` or bare) is group 2 or 3. */
const INLINE = /(!?)\[(?:[^\]\\\n]|\\.)*\]\(\s*(?:<([^>\n]*)>|([^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*))/g;
/** `[ref]: target` definitions at the start of a line. */
const REFERENCE = /^( {0,3}\[[^\]\n]+\]:[ \t]*)(?:<([^>\n]*)>|(\S+))/gm;
/** `[[name]]`, `[[name#heading]]`, `[[name|label]]`; `![[…]]` embeds a file. */
const WIKI = /(!?)\[\[([^[\]|#\n]+)(#[^[\]|\n]*)?(?:\|([^[\]\n]+))?\]\]/g;

/**
 * Rewrites the links of `body` (the file at `from`) that name another file of the import into
 * links to the artifact it became, anchors kept; wiki links become `[label](url)`. Web links,
 * same-page anchors and code are left alone; links to files outside the import and to assets
 * (images included) are left as written and listed.
 */
export function rewriteLinks(from: string, body: string, files: LinkTargets): RewrittenBody {
  const unresolved: LinkLeftAsWritten[] = [];
  let rewritten = 0;
  const relink = (target: string, isImage: boolean): string | undefined => {
    const resolved = resolveRelative(from, target, files);
    if (resolved === undefined) return undefined;
    if (typeof resolved !== 'string' || isImage) {
      unresolved.push(typeof resolved === 'string' ? { target, why: 'asset' } : resolved);
      return undefined;
    }
    rewritten++;
    return resolved;
  };
  const outsideCode = (text: string): string =>
    text
      .replace(INLINE, (match: string, bang: string, angled?: string, bare?: string) => {
        const target = angled ?? bare ?? '';
        const url = relink(target, bang === '!');
        if (url === undefined) return match;
        return angled === undefined
          ? match.slice(0, match.length - target.length) + url
          : `${match.slice(0, match.length - target.length - 1)}${url}>`;
      })
      .replace(REFERENCE, (match: string, head: string, angled?: string, bare?: string) => {
        const url = relink(angled ?? bare ?? '', false);
        return url === undefined ? match : `${head}${url}`;
      })
      .replace(WIKI, (match: string, bang: string, name: string, heading?: string, label?: string) => {
        const file = files.fileNamed(name.trim());
        const url = file === undefined ? undefined : files.urlOf(file);
        if (bang || url === undefined) {
          unresolved.push({ target: match, why: bang ? 'asset' : 'no such title or file' });
          return match;
        }
        rewritten++;
        const anchor = heading && heading.length > 1 ? `#${headingAnchor(heading.slice(1))}` : '';
        return `[${(label ?? name).trim()}](${url}${anchor})`;
      });
  let out = '';
  let last = 0;
  for (const code of body.matchAll(CODE)) {
    out += outsideCode(body.slice(last, code.index)) + code[0];
    last = code.index + code[0].length;
  }
  out += outsideCode(body.slice(last));
  return { body: out, rewritten, unresolved };
}
