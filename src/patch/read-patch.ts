import { notADiff, multipleFiles } from './failures.js';

/** `patchLine` is the 1-based line of the patch the line came from, for messages. */
export type HunkLine = { op: ' ' | '-' | '+'; text: string; patchLine: number };

export interface Hunk {
  /** 1-based position in the patch, as the model wrote it. */
  number: number;
  lines: HunkLine[];
  /** Old-side start and count from the `@@` header, when it has them (often wrong; only a hint). */
  statedStart?: number;
  statedCount?: number;
}

type Draft = Hunk & { implicitTail: number };

const HUNK_HEADER = /^@@(?!@)/;
const NUMBERED_HEADER = /^@@\s*-(\d+)(?:,(\d+))?\s+\+\d+(?:,\d+)?\s*@@/;
const FILE_HEADER = /^(---|\+\+\+)(\s|$)/;

/**
 * Reads the hunks of a unified diff as language models write it. The `diff` package's
 * `parsePatch` is not used: it throws on exactly what we must accept (wrong or missing
 * counts, bare `@@`, empty lines standing for blank context, prose around the diff), and it
 * finds the end of a hunk by its counts, which we cannot trust. A hunk here ends at the next
 * `@@`, file header or `diff --git` line, and its counts are recomputed from its lines.
 */
export function readPatch(patch: string): Hunk[] {
  const lines = patch.split(/\r?\n/);
  const hunks: Draft[] = [];
  const targets = new Set<string>();
  let current: Draft | undefined;
  let headersSeen = false;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const next = lines[i + 1];
    if (HUNK_HEADER.test(line)) {
      current = startHunk(hunks, line);
    } else if (line.startsWith('diff --git ')) {
      const newPath = line.lastIndexOf(' b/');
      if (newPath >= 0) addTarget(targets, line.slice(newPath + 1));
      current = undefined;
    } else if (isFileHeaderPair(line, next, lines[i + 2], current !== undefined)) {
      addTarget(targets, (next ?? '').slice(3));
      headersSeen = true;
      current = undefined;
      i++;
    } else if (!current && FILE_HEADER.test(line)) {
      if (line.startsWith('+++')) addTarget(targets, line.slice(3));
      headersSeen = true;
    } else if (current) {
      addBodyLine(current, line, i + 1);
    } else if (headersSeen && hunks.length === 0 && /^[ +-]/.test(line)) {
      // Headers followed directly by body lines: one hunk without an `@@` line.
      current = startHunk(hunks, '@@');
      addBodyLine(current, line, i + 1);
    }
  }

  if (targets.size > 1) throw multipleFiles([...targets]);
  if (hunks.length === 0) throw notADiff(patch);
  return hunks.map(({ implicitTail, ...hunk }) => ({
    ...hunk,
    lines: hunk.lines.slice(0, hunk.lines.length - implicitTail),
  }));
}

function startHunk(hunks: Draft[], header: string): Draft {
  const numbers = NUMBERED_HEADER.exec(header);
  const hunk: Draft = { number: hunks.length + 1, lines: [], implicitTail: 0 };
  if (numbers) {
    hunk.statedStart = Number(numbers[1]);
    if (numbers[2] !== undefined) hunk.statedCount = Number(numbers[2]);
  }
  hunks.push(hunk);
  return hunk;
}

/**
 * An empty line is a blank context line whose leading space was lost; a line with no prefix
 * at all is context whose space was lost. Either kind at the very end of a hunk is more
 * likely trailing text (the patch's final newline, a closing code fence, a remark), so it
 * is dropped: that only removes context, it never changes what the hunk does.
 */
function addBodyLine(hunk: Draft, line: string, patchLine: number): void {
  if (line.startsWith('\\')) return;
  const op = line[0];
  if (op === ' ' || op === '-' || op === '+') {
    hunk.lines.push({ op, text: line.slice(1), patchLine });
    hunk.implicitTail = 0;
  } else {
    hunk.lines.push({ op: ' ', text: line, patchLine });
    hunk.implicitTail++;
  }
}

/**
 * `--- x` then `+++ y` starts a new file section. Inside a hunk the same two lines could be
 * content (removing `-- x`, adding `++ y`), so there they count as headers only when a hunk
 * header or the end of the patch follows.
 */
function isFileHeaderPair(line: string, next: string | undefined, after: string | undefined, inHunk: boolean): boolean {
  if (!line.startsWith('--- ') || !next?.startsWith('+++ ')) return false;
  return !inHunk || after === undefined || HUNK_HEADER.test(after);
}

function addTarget(targets: Set<string>, raw: string): void {
  const name = (raw.split('\t')[0] ?? '').trim().replace(/^[ab]\//, '');
  if (name && name !== '/dev/null') targets.add(name);
}
