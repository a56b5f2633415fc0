/**
 * Frontmatter exactly as renderArtifactFile/renderFolderFile write it, read without a YAML
 * parser: `key: value` lines whose values are ids, plain enum words, `null` or JSON strings
 * (JSON strings are YAML double-quoted scalars with the same meaning). A cold start parses every
 * file of an organization, and gray-matter with js-yaml was a third of that work. Anything else
 * (comments, other scalars, a repeated key, CRLF line ends) is left to the YAML parser:
 * undefined then. Same result as gray-matter for what it accepts (test/unit/store/files.test.ts).
 */
export function parseOwnFrontmatter(content: string): { data: Record<string, string | null>; content: string } | undefined {
  if (!content.startsWith('---\n')) return undefined;
  // gray-matter closes at the first "\n---" after the opening line and drops one line break after it.
  const close = content.indexOf('\n---', 3);
  if (close < 0 || content[close + 4] !== '\n') return undefined;
  const lines = content.slice(4, close).split('\n');
  // Keys start with a letter (LINE), so none can be __proto__.
  const data: Record<string, string | null> = {};
  for (const line of lines) {
    const match = LINE.exec(line);
    if (!match || Object.hasOwn(data, match[1]!)) return undefined;
    const value = scalar(match[2]!);
    if (value === undefined) return undefined;
    data[match[1]!] = value;
  }
  return lines.length > 0 ? { data, content: content.slice(close + 5) } : undefined;
}

const LINE = /^([a-zA-Z][a-zA-Z0-9]*): (.*)$/;
const UUID = /^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/;
const WORD = /^(?:[a-z_]+|[A-Z_]+)$/;
/** Plain words YAML (1.1 or 1.2) reads as something other than text. */
const YAML_WORDS = /^(?:true|false|null|yes|no|on|off|y|n)$/i;
/** A JSON string without raw control characters, and only the escapes JSON and YAML share. */
const JSON_STRING = /^"(?:[^"\\\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"$/;

function scalar(text: string): string | null | undefined {
  if (text === 'null') return null;
  if (UUID.test(text) || (WORD.test(text) && !YAML_WORDS.test(text))) return text;
  return JSON_STRING.test(text) ? (JSON.parse(text) as string) : undefined;
}
