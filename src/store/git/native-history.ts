import { gitEnvironment, launcher, run } from '../../launcher/index.js';
import type { CommitObject } from './repo.js';
import type { FileChange } from './tree-diff.js';

/** One commit of a first-parent walk with the files it changed against its first parent. */
export interface HistoryStep {
  readonly oid: string;
  readonly commit: CommitObject;
  readonly changes: readonly FileChange[];
}

const MAX_LOG_BYTES = 1024 * 1024 * 1024;
const RECORD = '\x1e';
const FIELD = '\x1f';
const ZERO_OID = /^0{40}$/;

/** A commit as the logs here write it: its id, parents, tree, author, time and message (see parseLogRecords). */
export const COMMIT_FORMAT = `${RECORD}%H${FIELD}%P${FIELD}%T${FIELD}%an${FIELD}%ae${FIELD}%at${FIELD}%B${FIELD}`;
const LOG_FORMAT = `--format=${COMMIT_FORMAT}`;
const LOG_ARGS = [
  'log',
  '--root',
  '--first-parent',
  '--diff-merges=first-parent',
  '--no-renames',
  '--raw',
  '--no-abbrev',
  '-z',
  LOG_FORMAT,
];

/**
 * Every commit from the root (or from after `after`) to `target` along first parents, oldest
 * first, with its changed files: one `git log` instead of reading each commit and diffing its
 * trees object by object (isomorphic-git resolves each packed object's delta chain from scratch).
 */
export function firstParentHistory(gitdir: string, target: string, after?: string): Promise<HistoryStep[]> {
  const range = after ? [target, '--not', after] : [target];
  return runGit(gitdir, [...LOG_ARGS, '--reverse', ...range, '--']).then((out) => parseLog(out.toString('utf8')));
}

/**
 * The first-parent commits from `from` back that changed `path`, newest first, each with its
 * change of that path, up to the one for which `enough` says true: git is stopped there
 * instead of walking on to the root (the cost is the commits between, not the whole history).
 */
export function pathHistory(
  gitdir: string,
  from: string,
  path: string,
  enough: (step: HistoryStep) => boolean,
): Promise<HistoryStep[]> {
  return new Promise((resolve, reject) => {
    const child = launcher.launch('git', ['--git-dir', gitdir, ...LOG_ARGS, from, '--', path], {
      env: gitEnvironment(),
    });
    child.stdin.end();
    const steps: HistoryStep[] = [];
    let pending = '';
    let done = false;
    const take = (records: string) => {
      for (const step of parseLog(records)) {
        steps.push(step);
        if (enough(step)) return true;
      }
      return false;
    };
    const finish = (result: HistoryStep[] | Error) => {
      if (done) return;
      done = true;
      child.kill();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      // Output still on its way after the answer: the steps answered are the caller's now.
      if (done) return;
      pending += chunk;
      // A record is complete once the next one has started.
      const last = pending.lastIndexOf(RECORD);
      if (last <= 0) return;
      const complete = pending.slice(0, last);
      pending = pending.slice(last);
      if (take(complete)) finish(steps);
    });
    child.on('error', finish);
    child.on('close', (code) => {
      if (done) return;
      if (code !== 0) return finish(new Error(`git log failed with exit code ${code}`));
      take(pending);
      finish(steps);
    });
  });
}

/** The files `commit` deleted against `parent`; with `pathspec`, only those it matches. */
export async function deletedFiles(
  gitdir: string,
  parent: string,
  commit: string,
  pathspec?: string,
): Promise<FileChange[]> {
  const args = [
    'diff-tree',
    '-r',
    '-z',
    '--no-renames',
    '--raw',
    '--no-abbrev',
    '--diff-filter=D',
    parent,
    commit,
    '--',
  ];
  const out = await runGit(gitdir, pathspec === undefined ? args : [...args, pathspec]);
  return parseRaw(out.toString('utf8'));
}

function runGit(gitdir: string, args: readonly string[]): Promise<Buffer> {
  return run('git', ['--git-dir', gitdir, ...args], { maxOutputBytes: MAX_LOG_BYTES, env: gitEnvironment() }).catch(
    (error: Error) => {
      throw new Error(`git ${args[0]} failed: ${error.message}`);
    },
  );
}

/** Parses the output of the `git log` above; exported for its unit test. */
export function parseLog(output: string): HistoryStep[] {
  return parseLogRecords(output).map(({ oid, commit, raw }) => ({ oid, commit, changes: parseRaw(raw) }));
}

/** The records of a `git log --format=COMMIT_FORMAT --raw -z`, each commit with its raw changes unparsed. */
export function parseLogRecords(output: string): { oid: string; commit: CommitObject; raw: string }[] {
  return output
    .split(RECORD)
    .slice(1)
    .map((record) => {
      const fields = record.split(FIELD);
      const [oid, parents, tree, name, email, time, message] = fields;
      const person = { name: name!, email: email!, timestamp: Number(time), timezoneOffset: 0 };
      const commit: CommitObject = {
        message: message!,
        tree: tree!,
        parent: parents ? parents.split(' ') : [],
        author: person,
        committer: person,
      };
      return { oid: oid!, commit, raw: fields.slice(7).join(FIELD) };
    });
}

/** A path `--raw` lists, with each side's mode and object (null on the side where it is absent). */
export interface RawChange {
  readonly path: string;
  readonly before: { readonly mode: string; readonly oid: string } | null;
  readonly after: { readonly mode: string; readonly oid: string } | null;
}

/** `:<mode> <mode> <old> <new> <status>\0<path>\0` entries, as `--raw -z` writes them, every mode kept. */
export function parseRawEntries(raw: string): RawChange[] {
  const changes: RawChange[] = [];
  const tokens = raw.split('\0');
  for (let i = 0; i < tokens.length; i++) {
    const meta = tokens[i]!.trim();
    if (!meta.startsWith(':')) continue;
    const [oldMode, newMode, before, after] = meta.slice(1).split(' ');
    const side = (mode: string | undefined, oid: string | undefined) =>
      !oid || !mode || ZERO_OID.test(oid) || /^0+$/.test(mode) ? null : { mode, oid };
    changes.push({ path: tokens[++i]!, before: side(oldMode, before), after: side(newMode, after) });
  }
  return changes;
}

/** The regular files among raw changes: a submodule or a symlink is no file of ours on either side. */
export function regularFileChanges(changes: readonly RawChange[]): FileChange[] {
  const blob = (side: RawChange['before']) => (side?.mode.startsWith('100') ? side.oid : null);
  return changes.flatMap((entry) => {
    const change = { path: entry.path, before: blob(entry.before), after: blob(entry.after) };
    return change.before || change.after ? [change] : [];
  });
}

const parseRaw = (raw: string): FileChange[] => regularFileChanges(parseRawEntries(raw));
