import { type ArtifactType, artifactType } from '../../artifacts/index.js';
import { InvalidInputError } from '../../errors.js';
import type { Author, ChangeVerb } from '../types.js';

const VERB_WORD: Record<ChangeVerb, string> = {
  create: 'Create',
  edit: 'Edit',
  revert: 'Revert',
  restore: 'Restore',
  delete: 'Delete',
  move: 'Move',
};
const WORD_VERB = new Map(Object.entries(VERB_WORD).map(([verb, word]) => [word, verb as ChangeVerb]));

/** One line, no control characters: safe inside a commit header or trailer. */
export const oneLine = (value: string, max = 200): string =>
  value
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, max);

/** Names and emails go into commit headers: one line, no angle brackets. */
export const headerSafe = (person: Author): Author => ({
  name: oneLine(person.name).replace(/[<>]/g, '') || 'unknown',
  email: oneLine(person.email).replace(/[<>\s]/g, ''),
});

const trailerBlock = (trailers: [string, string | undefined][]): string =>
  trailers
    .filter((t): t is [string, string] => Boolean(t[1] && oneLine(t[1])))
    .map(([key, value]) => `${key}: ${oneLine(value)}`)
    .join('\n');

export const MAX_SUMMARY_LENGTH = 200;

/**
 * A change summary as it goes into a commit: one line, trimmed, at most 200 characters; empty
 * means none. Line breaks and other control characters would forge trailers, so they are refused.
 */
export function checkedSummary(summary: string | undefined): string | undefined {
  const text = summary?.trim() ?? '';
  if (!text) return undefined;
  if (/[\u0000-\u001f\u007f]/.test(text)) throw new InvalidInputError('the change summary must be a single line');
  if (text.length > MAX_SUMMARY_LENGTH) {
    throw new InvalidInputError(`the change summary is ${text.length} characters; the limit is ${MAX_SUMMARY_LENGTH}`);
  }
  return text;
}

/** The trailer naming the file an imported artifact came from, relative to the directory imported. */
export const IMPORT_TRAILER = 'Specbase-Import';

export function artifactCommitMessage(input: {
  verb: ChangeVerb;
  type: ArtifactType;
  id: string;
  title: string;
  client?: string;
  sourceCommit?: string;
  summary?: string;
  importedFrom?: string;
}): string {
  const subject = `${VERB_WORD[input.verb]} ${artifactType(input.type).name.toLowerCase()}: ${oneLine(input.title)}`;
  const source =
    input.sourceCommit && input.verb === 'revert'
      ? `This reverts commit ${input.sourceCommit}.\n\n`
      : input.sourceCommit && input.verb === 'restore'
        ? `This restores the version of commit ${input.sourceCommit}.\n\n`
        : '';
  const summary = checkedSummary(input.summary);
  const described = summary ? `${summary}\n\n` : '';
  const trailers = trailerBlock([
    ['Artifact-Id', input.id],
    ['Artifact-Type', input.type],
    ['Client', input.client],
    [IMPORT_TRAILER, input.importedFrom],
  ]);
  return `${subject}\n\n${described}${source}${trailers}\n`;
}

/** `Create folder: name`, and the later changes of a folder record: moved, renamed, deleted. */
export function folderCommitMessage(input: {
  id: string;
  name: string;
  client?: string;
  verb?: 'Create' | 'Move' | 'Rename' | 'Delete';
}): string {
  return `${input.verb ?? 'Create'} folder: ${oneLine(input.name)}\n\n${trailerBlock([
    ['Folder-Id', input.id],
    ['Client', input.client],
  ])}\n`;
}

export interface ParsedMessage {
  readonly verb?: ChangeVerb;
  readonly trailers: ReadonlyMap<string, string>;
}

/** Reads back what artifactCommitMessage wrote; tolerant of commits made by hand. */
export function parseCommitMessage(message: string): ParsedMessage {
  const verb = WORD_VERB.get(/^(\w+) /.exec(message)?.[1] ?? '');
  const paragraphs = message.trimEnd().split(/\n\s*\n/);
  const last = paragraphs.length > 1 ? (paragraphs.at(-1) ?? '') : '';
  const trailers = new Map<string, string>();
  for (const line of last.split('\n')) {
    const match = /^([A-Za-z][A-Za-z0-9-]*):\s*(.*)$/.exec(line);
    if (match?.[1] && match[2]) trailers.set(match[1], match[2].trim());
  }
  return { ...(verb ? { verb } : {}), trailers };
}
