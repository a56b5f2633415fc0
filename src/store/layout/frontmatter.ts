import matter from 'gray-matter';
import { isArtifactType, REQUIREMENT_TYPES, type ArtifactType, type RequirementType } from '../../artifacts/index.js';
import { InvalidInputError } from '../../errors.js';

export interface ArtifactFrontmatter {
  readonly id: string;
  readonly type: ArtifactType;
  readonly parent: string | null;
  readonly workspace: string;
  readonly title: string;
  readonly requirementType?: RequirementType;
  readonly created: string;
}

export interface FolderFrontmatter {
  readonly id: string;
  readonly type: 'folder';
  readonly name: string;
  readonly parent: string | null;
  readonly workspace: string;
  readonly created: string;
}

export type RepositoryFile =
  | { readonly kind: 'artifact'; readonly frontmatter: ArtifactFrontmatter; readonly body: string }
  | { readonly kind: 'folder'; readonly frontmatter: FolderFrontmatter };

/** gray-matter would eval `---js` frontmatter: only YAML is read, by its YAML engine alone (see parseBlock). */
const refuseCode = (language: string): never => {
  throw new InvalidInputError(
    `frontmatter in ${language} is refused: only YAML frontmatter is accepted, code in frontmatter is never evaluated`,
  );
};

const OPENING_DELIMITER = '---';
const CLOSING_DELIMITER = '\n---';
const OPENING_LANGUAGE = /^---[ \t]*([^\s-][^\r\n]*)?\r?\n/;

const UUID_TEXT = /^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/;
const ENUM_WORD = /^[a-z_]+$|^[A-Z_]+$/;

/**
 * Ids and enum words stay plain for readability; any other text is a JSON string, which is a
 * valid YAML double-quoted scalar, so no title can turn into a number, a date or a null.
 */
const scalar = (key: string, value: string | null): string =>
  value === null
    ? 'null'
    : UUID_TEXT.test(value) || ((key === 'type' || key === 'requirementType') && ENUM_WORD.test(value))
      ? value
      : JSON.stringify(value);

const block = (fields: [string, string | null | undefined][]): string =>
  `---\n${fields
    .filter((field): field is [string, string | null] => field[1] !== undefined)
    .map(([key, value]) => `${key}: ${scalar(key, value)}\n`)
    .join('')}---\n`;

export function renderArtifactFile(fm: ArtifactFrontmatter, body: string): string {
  return (
    block([
      ['id', fm.id],
      ['type', fm.type],
      ['parent', fm.parent],
      ['workspace', fm.workspace],
      ['title', fm.title],
      ['requirementType', fm.requirementType],
      ['created', fm.created],
    ]) + body
  );
}

export function renderFolderFile(fm: FolderFrontmatter): string {
  return block([
    ['id', fm.id],
    ['type', 'folder'],
    ['name', fm.name],
    ['parent', fm.parent],
    ['workspace', fm.workspace],
    ['created', fm.created],
  ]);
}

const text = (data: Record<string, unknown>, key: string, path: string): string => {
  const value = data[key];
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' && value) return value;
  throw new InvalidInputError(`${path}: frontmatter field "${key}" is missing or not text`);
};

const nullableText = (data: Record<string, unknown>, key: string, path: string): string | null =>
  data[key] === null || data[key] === undefined ? null : text(data, key, path);

/** Parses a markdown file of the repository. Throws InvalidInputError; never evaluates code. */
export function parseRepositoryFile(content: string, path: string): RepositoryFile {
  const language = OPENING_LANGUAGE.exec(content)?.[1]?.trim().toLowerCase();
  if (!content.startsWith('---') || (language && language !== 'yaml' && language !== 'yml')) {
    if (language) refuseCode(language);
    throw new InvalidInputError(`${path}: the file does not start with YAML frontmatter`);
  }
  const close = closingDelimiterAt(content);
  let data: Record<string, unknown>;
  try {
    data = parseBlock(content, close);
  } catch (error) {
    if (error instanceof InvalidInputError) throw error;
    throw new InvalidInputError(`${path}: unreadable frontmatter (${(error as Error).message.split('\n')[0]})`);
  }
  const id = text(data, 'id', path).toLowerCase();
  const type = text(data, 'type', path);
  const common = {
    id,
    parent: nullableText(data, 'parent', path),
    workspace: text(data, 'workspace', path),
    created: text(data, 'created', path),
  };
  if (type === 'folder') {
    return { kind: 'folder', frontmatter: { ...common, type, name: text(data, 'name', path) } };
  }
  if (!isArtifactType(type)) throw new InvalidInputError(`${path}: unknown artifact type ${JSON.stringify(type)}`);
  const requirementType = data['requirementType'];
  return {
    kind: 'artifact',
    frontmatter: {
      ...common,
      type,
      title: text(data, 'title', path),
      ...((REQUIREMENT_TYPES as readonly unknown[]).includes(requirementType)
        ? { requirementType: requirementType as RequirementType }
        : {}),
    },
    body: bodyAfter(content, close),
  };
}

/** gray-matter's own YAML engine (js-yaml's safeLoad), exported at run time though not in its types. */
const yamlEngine = (matter as unknown as { engines: { yaml: { parse(text: string): unknown } } }).engines.yaml;

/**
 * The fields of the frontmatter block, as gray-matter reads them. Its YAML engine is called
 * directly on the text between the delimiters: `matter()` first copies its input into a buffer,
 * looks it up as a cache key and merges its options twice, which cost as much again as the YAML
 * when a cold start parses every file of an organization. The caller has refused other languages.
 */
function parseBlock(content: string, close: number): Record<string, unknown> {
  // gray-matter reads `----` as no frontmatter at all.
  if (content[OPENING_DELIMITER.length] === '-') return {};
  const openingLineEnd = content.search(/\r?\n/);
  if (openingLineEnd < 0) return {};
  // A language named on the opening line is left out of the block; otherwise its blanks are in.
  const start = content.slice(OPENING_DELIMITER.length, openingLineEnd).trim()
    ? openingLineEnd
    : OPENING_DELIMITER.length;
  const block = content.slice(start, close);
  if (block.replace(/^\s*#[^\n]+/gm, '').trim() === '') return {};
  const data = yamlEngine.parse(block);
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
}

/**
 * Where the closing `---` of the frontmatter block starts, found as gray-matter finds it (the
 * first line starting with `---` after the opening one), or the end of a file that never closes it.
 */
function closingDelimiterAt(content: string): number {
  const close = content.indexOf(CLOSING_DELIMITER, OPENING_DELIMITER.length);
  return close < 0 ? content.length : close;
}

/** The body as gray-matter cuts it: what follows the closing delimiter, less the line break that ends it. */
function bodyAfter(content: string, close: number): string {
  let start = Math.min(content.length, close + CLOSING_DELIMITER.length);
  if (content[start] === '\r') start++;
  if (content[start] === '\n') start++;
  return content.slice(start);
}

/**
 * A markdown file from outside (an import): its YAML frontmatter fields when it opens with a
 * block (never evaluated: other languages are refused), and the body after it.
 */
export function parseSourceDocument(content: string, path: string): { fields: Record<string, unknown>; body: string } {
  if (!/^---[ \t]*(?:[^\s-][^\r\n]*)?\r?\n/.test(content)) return { fields: {}, body: content };
  const language = OPENING_LANGUAGE.exec(content)?.[1]?.trim().toLowerCase();
  if (language && language !== 'yaml' && language !== 'yml') refuseCode(language);
  const close = closingDelimiterAt(content);
  try {
    return { fields: parseBlock(content, close), body: bodyAfter(content, close) };
  } catch (error) {
    throw new InvalidInputError(`${path}: unreadable frontmatter (${(error as Error).message.split('\n')[0]})`);
  }
}
