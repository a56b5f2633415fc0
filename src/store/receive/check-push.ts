import { InvalidInputError, PushRefusedError, SpecbaseError, type PushRefusal } from '../../errors.js';
import type { OrgState } from '../catalog/index.js';
import { CatFileBatch, pushedHistory, type PushedCommitStep, type PushedFileChange } from '../git/index.js';
import { parseRepositoryFile } from '../layout/index.js';
import type { WriteEnv } from '../org/index.js';
import type { PushedCommit, PushedUpdate, PushRules, QuarantineObjects } from '../types.js';
import { checkChangedFile, checkWritable, type FileCheck } from './check-file.js';
import { checkPlacement, strandedChild } from './check-placement.js';
import { PushedCatalog, type PushedEntry } from './pushed-catalog.js';

/** Refusals reported at most: enough to fix a commit, not a wall of text for a broken history. */
const MAX_REFUSALS = 20;
/** Regular files, executable or not; symlinks (120000) and submodules (160000) are no artifacts. */
const FILE_MODES: ReadonlySet<string> = new Set(['100644', '100755']);
const FETCH_AND_REBASE = 'fetch and rebase (git pull --rebase), then push again';
const utf8 = new TextDecoder('utf-8', { fatal: true });

export interface PushToCheck {
  readonly gitdir: string;
  readonly state: OrgState;
  readonly update: PushedUpdate;
  readonly objects: QuarantineObjects;
  readonly rules: PushRules;
  readonly env: WriteEnv;
}

/**
 * Judges a push to `main` before any ref moves, all or nothing: `main` must not be deleted or
 * rewound, the pushed commits must line up on top of it one by one (no merges: rebase), and
 * each must leave the repository as the store's own writes would (see checkChangedFile and
 * checkPlacement), touching only workspaces the pusher may write. Answers the pushed commits,
 * oldest first; throws PushRefusedError naming each commit, file and rule broken (those of the
 * first commit that breaks any).
 */
export async function checkPush(push: PushToCheck): Promise<PushedCommit[]> {
  const { state, update } = push;
  if (update.new === null) throw refused({ rule: 'deleting main is refused' });
  if (update.old !== state.head) {
    throw refused({
      rule: `main moved on since you fetched (it is now at ${state.head?.slice(0, 10)}): ${FETCH_AND_REBASE}`,
    });
  }
  const steps = await pushedHistory(push.gitdir, { from: state.head, to: update.new }, push.objects);
  if (steps.length === 0) throw refused({ rule: `this would move main back to an older commit: ${FETCH_AND_REBASE}` });
  const catalog = new PushedCatalog(state);
  const check: FileCheck = { catalog, rules: push.rules, env: push.env };
  const blobs = new CatFileBatch(push.gitdir, push.objects);
  try {
    let expectedParent = state.head;
    for (const step of steps) {
      if (step.parents.length !== 1) {
        throw refused({
          commit: step.oid,
          rule: `merge commits are refused: history on main stays linear; ${FETCH_AND_REBASE}`,
        });
      }
      if (step.parents[0] !== expectedParent) {
        throw refused({ commit: step.oid, rule: `the commit is not on top of main: ${FETCH_AND_REBASE}` });
      }
      const refusals = await checkCommit(check, blobs, step);
      if (refusals.length > 0) throw new PushRefusedError(refusals.slice(0, MAX_REFUSALS));
      expectedParent = step.oid;
    }
  } finally {
    blobs.close();
  }
  return steps.map((step) => ({ commit: step.oid, author: step.author, subject: step.subject }));
}

const refused = (refusal: PushRefusal): PushRefusedError => new PushRefusedError([refusal]);

/** A rule broken, in the words of the error that says so (without the path the refusal names anyway). */
function ruleOf(error: unknown, path: string): string {
  if (!(error instanceof SpecbaseError)) throw error;
  return error.message.startsWith(`${path}: `) ? error.message.slice(path.length + 2) : error.message;
}

/** Lays one commit over the catalog, file by file, then checks where everything it touched sits. */
async function checkCommit(check: FileCheck, blobs: CatFileBatch, step: PushedCommitStep): Promise<PushRefusal[]> {
  const refusals: PushRefusal[] = [];
  const refuse = (path: string, rule: string) => refusals.push({ commit: step.oid, path, rule });
  const touched: { readonly entry: PushedEntry; readonly before?: PushedEntry }[] = [];
  const removed: PushedEntry[] = [];
  // Removals first, so that a file deleted and another added in one commit are judged as the commit leaves them.
  const ordered = [...step.changes].sort((a, b) => Number(Boolean(a.after)) - Number(Boolean(b.after)));
  for (const change of ordered) {
    try {
      if (change.after) {
        touched.push(await changeFile(check, blobs, change, change.after));
      } else {
        const gone = removeFile(check, change);
        if (gone) removed.push(gone);
      }
    } catch (error) {
      refuse(change.path, ruleOf(error, change.path));
    }
  }
  if (refusals.length > 0) return refusals;
  for (const { entry, before } of touched) {
    try {
      checkPlacement(check.catalog, entry);
    } catch (error) {
      refuse(entry.path, ruleOf(error, entry.path));
    }
    const stranded = before && before.workspaceId !== entry.workspaceId && strandedChild(check.catalog, entry, false);
    if (stranded) refuse(stranded.child.path, stranded.rule);
  }
  for (const entry of removed) {
    const stranded = strandedChild(check.catalog, entry, true);
    if (stranded) refuse(stranded.child.path, stranded.rule);
  }
  return refusals;
}

function removeFile(check: FileCheck, change: PushedFileChange): PushedEntry | undefined {
  const entry = check.catalog.atPath(change.path);
  // A file that was never an artifact (the store ignored it) goes without a word.
  if (!entry) return undefined;
  if (entry.type === 'product') throw new InvalidInputError('the product cannot be deleted');
  checkWritable(check, entry.workspaceId);
  check.catalog.remove(entry);
  return entry;
}

async function changeFile(
  check: FileCheck,
  blobs: CatFileBatch,
  change: PushedFileChange,
  after: NonNullable<PushedFileChange['after']>,
): Promise<{ entry: PushedEntry; before?: PushedEntry }> {
  if (!FILE_MODES.has(after.mode)) {
    throw new InvalidInputError(`only regular files are accepted, not mode ${after.mode} (a symlink or a submodule)`);
  }
  if (!change.path.endsWith('.md')) {
    throw new InvalidInputError(
      'only artifact files (markdown, .md, where the repository layout puts them) are accepted',
    );
  }
  const file = parseRepositoryFile(await readText(blobs, after.oid), change.path);
  const before = change.before ? check.catalog.atPath(change.path) : undefined;
  const previous = before && {
    entry: before,
    body:
      before.type === 'folder' || !change.before ? '' : bodyOf(await readText(blobs, change.before.oid), change.path),
  };
  const entry = checkChangedFile(check, change.path, file, previous);
  check.catalog.set(entry);
  return before ? { entry, before } : { entry };
}

async function readText(blobs: CatFileBatch, oid: string): Promise<string> {
  try {
    return utf8.decode(await blobs.read(oid));
  } catch (error) {
    if (error instanceof TypeError) throw new InvalidInputError('the file is not UTF-8 text');
    throw error;
  }
}

function bodyOf(text: string, path: string): string {
  try {
    const file = parseRepositoryFile(text, path);
    return file.kind === 'artifact' ? file.body : '';
  } catch {
    return '';
  }
}
