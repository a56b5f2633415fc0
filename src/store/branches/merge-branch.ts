import { ConflictError, MergeConflictError, NotFoundError, type MergeConflict } from '../../errors.js';
import { conflictMarkers, mergeWithMarkers } from '../../patch/index.js';
import { headerSafe, parseRepositoryFile } from '../layout/index.js';
import {
  MAIN_REF,
  readBlobText,
  readRef,
  writeBlobText,
  writeCommitObject,
  writeRef,
  writingObjectsTogether,
  type FileChange,
} from '../git/index.js';
import { advanceTo, type OrgHandle, type WriteEnv } from '../org/index.js';
import { treeWithFiles } from '../write/index.js';
import type { ChangeContext, CommitResult, MergeOutcome } from '../types.js';
import { filesChangedBetween, isAncestor, mergeBase } from './branch-changes.js';

export interface BranchMerge {
  /** The change request's branch, and the merge commit's message. */
  readonly ref: string;
  readonly message: string;
  /** A person's resolution of each conflicted file, by path (the whole file, frontmatter included). */
  readonly resolutions?: ReadonlyMap<string, string>;
  /**
   * `main` as the person saw the conflicts they resolved (MergeConflictError.mainCommit): when
   * `main` has moved since, their resolutions may undo what it took meanwhile, so they are set
   * aside and the conflicts found again.
   */
  readonly resolvedOn?: string;
}

/** The sides of a conflicted passage: `<<<<<<< main`, `>>>>>>> proposed`. */
const MERGE_LABELS = { ours: 'main', theirs: 'proposed' } as const;

/** How one file the branch changed comes onto `main`: a blob (null: the file goes), or a conflict. */
type FileOutcome = { readonly path: string; readonly content: string | null } | { readonly conflict: MergeConflict };

/**
 * Brings a change request's branch onto `main`, run under `main`'s lock with the state at
 * `main`. When `main` has not moved since the branch parted, `main` simply moves to the
 * branch (fast-forward): each commit stays as its author made it. Otherwise one merge commit
 * (parents: `main`, then the branch) takes each file the branch changed: as is when `main` left
 * it alone, merged line by line when both changed it, and never guessed: a passage both changed
 * differently, or a file one side removed and the other changed, is a conflict, and nothing is
 * written until a person resolves each (`resolutions`).
 */
export async function mergeBranch(
  handle: OrgHandle,
  merge: BranchMerge,
  ctx: ChangeContext,
  env: WriteEnv,
): Promise<MergeOutcome> {
  const { repo, state } = handle;
  const tip = readRef(repo.gitdir, merge.ref);
  if (!tip) throw new NotFoundError('change request branch');
  const head = state.head as string;
  if (await isAncestor(repo.gitdir, tip, head))
    throw new ConflictError('main already holds every change of this change request');
  const base = await mergeBase(repo.gitdir, head, tip);
  const results: CommitResult[] = [];
  const applied = { applied: (r: CommitResult[]) => results.push(...r), bodies: env.bodies };
  if (base === head) {
    await writeRef(repo.gitdir, MAIN_REF, tip, repo.durability);
    await advanceTo(repo, state, tip, applied);
    return { kind: 'fast-forward', commit: tip, tip, results };
  }
  const [ours, theirs] = await Promise.all([
    filesChangedBetween(repo, base, head),
    filesChangedBetween(repo, base, tip),
  ]);
  const onMain = new Map(ours.map((change) => [change.path, change.after]));
  const resolutions = merge.resolvedOn === undefined || merge.resolvedOn === head ? merge.resolutions : undefined;
  const outcomes = await Promise.all(theirs.map((change) => mergeFile(handle, change, onMain, resolutions)));
  const conflicts = outcomes.flatMap((o) => ('conflict' in o ? [o.conflict] : []));
  if (conflicts.length > 0) throw new MergeConflictError(conflicts, head);
  const files = outcomes.flatMap((o) => ('conflict' in o ? [] : [o]));
  const timestamp = Math.floor(Date.now() / 1000);
  const commit = await writingObjectsTogether(repo, async () => {
    const edits = await Promise.all(
      files.map(async (file) => ({
        path: file.path,
        blob: file.content === null ? null : await writeBlobText(repo, file.content),
      })),
    );
    const { rootTree } = await treeWithFiles(repo, state, edits);
    return writeCommitObject(repo, {
      message: merge.message,
      tree: rootTree,
      parent: [head, tip],
      author: { ...headerSafe(ctx.author), timestamp, timezoneOffset: 0 },
      committer: { ...headerSafe(env.committer), timestamp, timezoneOffset: 0 },
    });
  });
  if (readRef(repo.gitdir, MAIN_REF) !== head) {
    throw new ConflictError('the repository moved on during the merge; nothing was written');
  }
  await writeRef(repo.gitdir, MAIN_REF, commit, repo.durability);
  await advanceTo(repo, state, commit, applied);
  return { kind: 'merge', commit, tip, results };
}

async function mergeFile(
  handle: OrgHandle,
  change: FileChange,
  onMain: ReadonlyMap<string, string | null>,
  resolutions: ReadonlyMap<string, string> | undefined,
): Promise<FileOutcome> {
  const { path } = change;
  const text = (oid: string | null) => (oid ? readBlobText(handle.repo, oid) : Promise.resolve(null));
  const mainBlob = onMain.has(path) ? (onMain.get(path) ?? null) : change.before;
  if (mainBlob === change.before) return { path, content: await text(change.after) };
  if (mainBlob === change.after) return { path, content: await text(change.after) };
  const resolved = resolutions?.get(path);
  const refused = resolved === undefined ? undefined : refusalOf(resolved, path);
  if (resolved !== undefined && refused === undefined) return { path, content: resolved };
  const [base, main, proposed] = await Promise.all([text(change.before), text(mainBlob), text(change.after)]);
  const facts = { ...factsOf(proposed ?? main ?? base, path), ...(refused ? { refused } : {}) };
  if (base !== null && main !== null && proposed !== null) {
    const merged = mergeWithMarkers({ ours: main, base, theirs: proposed }, MERGE_LABELS);
    if (merged.conflicts === 0 && validFile(merged.text, path)) return { path, content: merged.text };
    return { conflict: { path, ...facts, base, main, proposed, withMarkers: merged.text } };
  }
  return { conflict: { path, ...facts, base, main, proposed, withMarkers: main ?? proposed ?? '' } };
}

const validFile = (content: string, path: string): boolean => {
  try {
    parseRepositoryFile(content, path);
    return true;
  } catch {
    return false;
  }
};

const MARKERS = conflictMarkers(MERGE_LABELS.ours, MERGE_LABELS.theirs);

/**
 * A person's resolution must be a whole file again: why it is not (conflict markers left in
 * it, or not a valid file), and the file stays in conflict; undefined when it is.
 */
function refusalOf(content: string, path: string): string | undefined {
  const lines = content.split('\n');
  if (lines.includes(MARKERS.start) || lines.includes(MARKERS.end)) {
    return 'it still has conflict markers: keep the lines you want between them and remove the markers';
  }
  try {
    parseRepositoryFile(content, path);
    return undefined;
  } catch (error) {
    return `it is not a valid file: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function factsOf(text: string | null, path: string): { artifactId?: string; title?: string } {
  if (text === null) return {};
  try {
    const file = parseRepositoryFile(text, path);
    return {
      artifactId: file.frontmatter.id,
      title: file.kind === 'artifact' ? file.frontmatter.title : file.frontmatter.name,
    };
  } catch {
    return {};
  }
}
