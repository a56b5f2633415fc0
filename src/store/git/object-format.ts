import type { CommitObject, TreeEntry } from 'isomorphic-git';

/** A pushed tree or commit git's fsck would refuse (`git unpack-objects --strict`): what is wrong with it. */
export class MalformedObjectError extends Error {}

const TREE_MODES: ReadonlyMap<string, TreeEntry['type']> = new Map([
  ['40000', 'tree'],
  ['100644', 'blob'],
  ['100755', 'blob'],
  ['120000', 'blob'],
  ['160000', 'commit'],
]);
const OID_BYTES = 20;
const SLASH = 0x2f;
/** A name none of checkEntryName's rules can refuse: no leading dot, slash, tilde, colon or other mark. */
const PLAIN_NAME = /^[\w-][\w.-]*$/;
/** Zero-width and direction marks HFS+ ignores in names: `.g\u200cit` is `.git` there (git's is_hfs_dotgit). */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;
const utf8 = new TextDecoder('utf-8');

/**
 * A tree's entries, as isomorphic-git's readTree gives them (a directory's mode `040000`),
 * checked as `git fsck` checks a pushed tree in strict mode: well formed, each mode one git
 * writes, no empty, `.`, `..`, `.git` (in any spelling Windows or macOS would take for it) or
 * slash-holding name, no null id, entries in git's order and none twice.
 */
export function parseTree(body: Uint8Array): TreeEntry[] {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const entries: TreeEntry[] = [];
  // Where each entry's name lies in `bytes` (start, end, start, end...): names are compared in place.
  const spans: number[] = [];
  const names = new Set<string>();
  let previousTree = false;
  let byName = true;
  for (let at = 0; at < bytes.length;) {
    const space = bytes.indexOf(0x20, at);
    const nul = space < 0 ? -1 : bytes.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 1 + OID_BYTES > bytes.length) throw new MalformedObjectError('a truncated tree');
    const mode = modeAt(bytes, at, space);
    const type = TREE_MODES.get(mode)!;
    const path = bytes.toString('utf8', space + 1, nul);
    if (!PLAIN_NAME.test(path)) checkEntryName(path);
    if (isNullId(bytes, nul + 1)) throw new MalformedObjectError(`a tree whose entry ${path} names the null object`);
    if (names.has(path)) throw new MalformedObjectError(`a tree holding ${path} twice`);
    names.add(path);
    const tree = type === 'tree';
    if (spans.length > 0) {
      const start = spans[spans.length - 2]!;
      const end = spans[spans.length - 1]!;
      if (gitOrder(bytes, start, end, previousTree, space + 1, nul, tree) >= 0) {
        throw new MalformedObjectError('a tree whose entries are out of order');
      }
      if (byName && gitOrder(bytes, start, end, false, space + 1, nul, false) > 0) byName = false;
    }
    spans.push(space + 1, nul);
    previousTree = tree;
    entries.push({
      mode: mode === '40000' ? '040000' : mode,
      path,
      oid: bytes.toString('hex', nul + 1, nul + 1 + OID_BYTES),
      type,
    });
    at = nul + 1 + OID_BYTES;
  }
  // isomorphic-git lists a tree's entries by name alone, byte by byte, as a directory listing would.
  if (byName) return entries;
  const byte = (i: number, j: number) =>
    gitOrder(bytes, spans[2 * i]!, spans[2 * i + 1]!, false, spans[2 * j]!, spans[2 * j + 1]!, false);
  return entries
    .map((_, i) => i)
    .sort(byte)
    .map((i) => entries[i]!);
}

/** The mode of the entry at `start` (up to `end`), as git writes it; any other is refused. */
function modeAt(bytes: Buffer, start: number, end: number): string {
  for (const mode of TREE_MODES.keys()) {
    if (mode.length !== end - start) continue;
    let at = 0;
    while (at < mode.length && mode.charCodeAt(at) === bytes[start + at]) at++;
    if (at === mode.length) return mode;
  }
  throw new MalformedObjectError(
    `a tree with an entry of mode ${bytes.toString('latin1', start, end)}, which git does not write`,
  );
}

/**
 * git's order of two entries' names, each where it lies in `bytes` (`a` from `aStart` to
 * `aEnd`): byte by byte, a folder's as if a slash followed it.
 */
function gitOrder(
  bytes: Buffer,
  aStart: number,
  aEnd: number,
  aTree: boolean,
  bStart: number,
  bEnd: number,
  bTree: boolean,
): number {
  const common = Math.min(aEnd - aStart, bEnd - bStart);
  for (let at = 0; at < common; at++) {
    const difference = bytes[aStart + at]! - bytes[bStart + at]!;
    if (difference !== 0) return difference;
  }
  const next = (start: number, end: number, tree: boolean) =>
    start + common < end ? bytes[start + common]! : tree ? SLASH : -1;
  return next(aStart, aEnd, aTree) - next(bStart, bEnd, bTree);
}

function isNullId(bytes: Buffer, start: number): boolean {
  for (let at = start; at < start + OID_BYTES; at++) if (bytes[at] !== 0) return false;
  return true;
}

function checkEntryName(name: string): void {
  const hfs = name.replace(HFS_IGNORED, '');
  const ntfs = hfs
    .split(':')[0]!
    .toLowerCase()
    .replace(/[. ]+$/, '');
  if (name === '' || name.includes('/') || name.includes('\\')) {
    throw new MalformedObjectError(`a tree with an entry named "${name}", which no file can have`);
  }
  if (hfs === '.' || hfs === '..' || ntfs === '.git' || /^git~[1-9]$/.test(ntfs)) {
    throw new MalformedObjectError(`a tree with an entry named "${name}", which git refuses as a path`);
  }
}

/** `Name <email> seconds ±hhmm`, as git's fsck_ident reads an author or a committer. */
const IDENT = /^(?!<)[^<>\n]* <[^<>\n]*> (?:0|[1-9]\d{0,17}) [+-]\d{4}$/;

/**
 * A commit, as isomorphic-git's readCommit gives it (headers read by position, the message
 * with its line endings normalized), checked as `git fsck` checks a pushed commit in strict
 * mode: a tree, then its parents, one author and a committer, each a well-formed identity,
 * and no NUL before the message.
 */
export function parseCommit(body: Uint8Array): CommitObject {
  const text = utf8.decode(body);
  const headerEnd = text.indexOf('\n\n');
  const headerText = headerEnd < 0 ? text : text.slice(0, headerEnd + 1);
  if (headerText.includes('\0')) throw new MalformedObjectError('a commit with a NUL byte in its header');
  if (!headerText.endsWith('\n')) throw new MalformedObjectError('a commit whose header does not end');
  const lines = headerText.slice(0, -1).split('\n');
  let at = 0;
  const take = (key: string) => (lines[at]?.startsWith(`${key} `) ? lines[at++]!.slice(key.length + 1) : undefined);
  const tree = take('tree');
  if (tree === undefined || !/^[0-9a-f]{40}$/.test(tree)) throw new MalformedObjectError('a commit without a tree');
  const parent: string[] = [];
  for (let id = take('parent'); id !== undefined; id = take('parent')) {
    if (!/^[0-9a-f]{40}$/.test(id)) throw new MalformedObjectError(`a commit whose parent "${id}" is no object id`);
    parent.push(id);
  }
  const author = take('author');
  if (author === undefined) throw new MalformedObjectError('a commit without an author');
  if (lines[at]?.startsWith('author ')) throw new MalformedObjectError('a commit with two authors');
  const committer = take('committer');
  if (committer === undefined) throw new MalformedObjectError('a commit without a committer');
  for (const [role, ident] of [
    ['author', author],
    ['committer', committer],
  ] as const) {
    if (!IDENT.test(ident))
      throw new MalformedObjectError(`a commit whose ${role} "${ident}" is not Name <email> time zone`);
  }
  // Headers past these (encoding, gpgsig, mergetag...) are kept as isomorphic-git keeps them: the first of each.
  const extra: Record<string, string> = {};
  for (const [index, line] of lines.entries()) {
    if (index < at || line.startsWith(' ')) continue;
    const key = line.slice(0, line.indexOf(' '));
    if (!(key in extra) && !['tree', 'parent', 'author', 'committer'].includes(key))
      extra[key] = continued(lines, index);
  }
  return {
    tree,
    parent,
    author: identityOf(author),
    committer: identityOf(committer),
    ...extra,
    message: normalizedMessage(text.slice(headerEnd + 2)),
  };
}

/** A header's value with its continuation lines (those that begin with a space), as isomorphic-git joins them. */
function continued(lines: readonly string[], start: number): string {
  const first = lines[start]!;
  let value = first.slice(first.indexOf(' ') + 1);
  for (let at = start + 1; at < lines.length && lines[at]!.startsWith(' '); at++) value += `\n${lines[at]!.slice(1)}`;
  return value;
}

function identityOf(ident: string): CommitObject['author'] {
  const [, name, email, seconds, sign, hours, minutes] = /^(.*) <(.*)> (\d+) ([+-])(\d\d)(\d\d)$/.exec(ident)!;
  const offset = (sign === '+' ? 1 : -1) * (Number(hours) * 60 + Number(minutes));
  // isomorphic-git's sign: minutes west of UTC, as Date.getTimezoneOffset counts them; -0000 stays -0.
  return { name: name!, email: email!, timestamp: Number(seconds), timezoneOffset: offset === 0 ? offset : -offset };
}

function normalizedMessage(message: string): string {
  return `${message.replace(/\r/g, '').replace(/^\n+/, '').replace(/\n+$/, '')}\n`;
}
