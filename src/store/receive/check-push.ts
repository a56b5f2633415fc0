import { InvalidInputError, PushRefusedError, SpecbaseError, type PushRefusal } from '../../errors.js';
import type { OrgState } from '../catalog/index.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  CatFileBatch,
  MissingObjectError,
  PushedObjects,
  pushedHistory,
  pushedLine,
  readBlobBytes,
  RefusedObjectError,
  withPushedObjects,
  type PushedCommitStep,
  type PushedFileChange,
  type Repo,
} from '../git/index.js';
import { parseRepositoryFile } from '../layout/index.js';
import type { ParsedFile, WriteEnv } from '../org/index.js';
import type { PushedUpdate, PushRules, QuarantineObjects } from '../types.js';
import { checkChangedFile, checkWritable, type FileCheck } from './check-file.js';
import { checkPlacement, strandedChild } from './check-placement.js';
import { PushedCatalog, type PushedEntry } from './pushed-catalog.js';

/** Refusals reported at most: enough to fix a commit, not a wall of text for a broken history. */
const MAX_REFUSALS = 20;
/** Regular files, executable or not; symlinks (120000) and submodules (160000) are no artifacts. */
const FILE_MODES: ReadonlySet<string> = new Set(['100644', '100755']);
const FETCH_AND_REBASE = 'fetch and rebase (git pull --rebase), then push again';
const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Commits of a push read in process at most; a longer push is read by one `git log`, as is anything but a plain line. */
const IN_PROCESS_COMMITS = 32;

/** Where the checks read pushed files from. */
interface Blobs {
  read(oid: string): Promise<Uint8Array>;
  close(): void;
}

/**
 * The pushed commits and a reader of their files. A push of few objects lies loose in its
 * quarantine (see the Git transport): each of its objects is read and checked here (see
 * PushedObjects), and a plain line of commits is followed in process, as the store reads its
 * own commits, where `git log` and `git cat-file` cost two processes, most of a one-file push's
 * checks. A packed one (many objects, fsck-checked by git as it was indexed), or anything but
 * a plain line of commits, goes to git.
 */
async function pushedCommits(push: PushToCheck, from: string | null, to: string) {
  const quarantine = push.objects.GIT_OBJECT_DIRECTORY;
  if (quarantine && !existsSync(path.join(quarantine, 'pack'))) {
    const repo = withPushedObjects(push.repo, new PushedObjects(quarantine, path.join(push.repo.gitdir, 'objects')));
    const steps = await pushedLine(repo, { from, to }, IN_PROCESS_COMMITS);
    if (steps) return { steps, blobs: { read: (oid: string) => readBlobBytes(repo, oid), close: () => undefined } };
  }
  const steps = await pushedHistory(push.repo.gitdir, { from, to }, push.objects);
  return { steps, blobs: new CatFileBatch(push.repo.gitdir, push.objects) };
}

export interface PushToCheck {
  readonly repo: Repo;
  /** The branch pushed to, as the pusher names it (`main`, `cr/7`): refusals say which. */
  readonly branch: string;
  readonly state: OrgState;
  readonly update: PushedUpdate;
  readonly objects: QuarantineObjects;
  readonly rules: PushRules;
  readonly env: WriteEnv;
}

/** A push judged acceptable: its commits, oldest first, and each file they add, as parsed (by blob). */
export interface JudgedPush {
  readonly steps: readonly PushedCommitStep[];
  readonly parsed: ReadonlyMap<string, ParsedFile>;
}

/**
 * Judges a push to a branch before any ref moves, all or nothing: the branch must not be deleted
 * or rewound, the pushed commits must line up on top of it one by one (no merges: rebase), and
 * each must leave the repository as the store's own writes would (see checkChangedFile and
 * checkPlacement), touching only workspaces the pusher may write. Answers the pushed commits
 * and files as read and parsed: the store follows the branch with them once they land, without
 * reading them again. Throws PushRefusedError naming each commit, file and rule broken (those
 * of the first commit that breaks any).
 */
export async function checkPush(push: PushToCheck): Promise<JudgedPush> {
  const { state, update, branch } = push;
  if (update.new === null) throw refused({ rule: `deleting ${branch} is refused` });
  if (update.old !== state.head) {
    throw refused({
      rule: `${branch} moved on since you fetched (it is now at ${state.head?.slice(0, 10)}): ${FETCH_AND_REBASE}`,
    });
  }
  if (update.new === state.head) {
    throw refused({ rule: `that commit is already ${branch}'s tip: the push brings nothing new` });
  }
  const { steps, blobs } = await pushedCommits(push, state.head, update.new).catch(asRefusal);
  const catalog = new PushedCatalog(state);
  const parsed = new Map<string, ParsedFile>();
  const check: FileCheck = { catalog, rules: push.rules, env: push.env };
  try {
    if (steps.length === 0) {
      throw refused({ rule: `this would move ${branch} back to an older commit: ${FETCH_AND_REBASE}` });
    }
    let expectedParent = state.head;
    for (const step of steps) {
      if (step.parents.length !== 1) {
        throw refused({
          commit: step.oid,
          rule: `merge commits are refused: history on ${branch} stays linear; ${FETCH_AND_REBASE}`,
        });
      }
      if (step.parents[0] !== expectedParent) {
        throw refused({ commit: step.oid, rule: `the commit is not on top of ${branch}: ${FETCH_AND_REBASE}` });
      }
      const refusals = await checkCommit(check, blobs, step, parsed).catch(asRefusal);
      if (refusals.length > 0) throw new PushRefusedError(refusals.slice(0, MAX_REFUSALS));
      expectedParent = step.oid;
    }
  } finally {
    blobs.close();
  }
  return { steps, parsed };
}

const refused = (refusal: PushRefusal): PushRefusedError => new PushRefusedError([refusal]);

/** A pushed object git's fsck would refuse, or one the push lacks, as the refusal that says so. */
function asRefusal(error: unknown): never {
  if (error instanceof RefusedObjectError) throw refused({ rule: `the pack's ${error.message}` });
  if (error instanceof MissingObjectError) {
    throw refused({
      rule: `the pack lacks object ${error.objectName}, which the pushed commits name: check your clone with git fsck, then push again`,
    });
  }
  throw error;
}

/** A rule broken, in the words of the error that says so (without the path the refusal names anyway). */
function ruleOf(error: unknown, path: string): string {
  if (!(error instanceof SpecbaseError)) throw error;
  return error.message.startsWith(`${path}: `) ? error.message.slice(path.length + 2) : error.message;
}

/** Lays one commit over the catalog, file by file, then checks where everything it touched sits. */
async function checkCommit(
  check: FileCheck,
  blobs: Blobs,
  step: PushedCommitStep,
  parsed: Map<string, ParsedFile>,
): Promise<PushRefusal[]> {
  const refusals: PushRefusal[] = [];
  const refuse = (path: string, rule: string) => refusals.push({ commit: step.oid, path, rule });
  const touched: { readonly entry: PushedEntry; readonly before?: PushedEntry }[] = [];
  const removed: PushedEntry[] = [];
  // Removals first, so that a file deleted and another added in one commit are judged as the commit leaves them.
  const ordered = [...step.changes].sort((a, b) => Number(Boolean(a.after)) - Number(Boolean(b.after)));
  for (const change of ordered) {
    try {
      if (change.after) {
        touched.push(await changeFile(check, blobs, change, change.after, parsed));
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
  blobs: Blobs,
  change: PushedFileChange,
  after: NonNullable<PushedFileChange['after']>,
  parsed: Map<string, ParsedFile>,
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
  parsed.set(after.oid, { path: change.path, file });
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

async function readText(blobs: Blobs, oid: string): Promise<string> {
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
