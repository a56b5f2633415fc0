import { ExplainedNotFoundError, NotFoundError } from '../errors.js';
import { isObjectId } from '../ids.js';
import { unifiedDiffOffLoop } from '../patch/index.js';
import type { ArtifactMeta, HistoryEntry } from '../store/types.js';
import type { DomainContext, DomainDeps } from './ports.js';
import { messageFacts } from './message-facts.js';
import type { Scope } from './scope.js';
import type { ChangeView } from './types.js';

export async function artifactHistory(deps: DomainDeps, scope: Scope, id: string): Promise<HistoryEntry[]> {
  const meta = await scope.readable(id);
  return deps.store.history(scope.orgId, meta.id);
}

/** The shortest commit abbreviation taken, as git's default. */
const MIN_ABBREVIATION = 7;

/**
 * One entry of an artifact's history, by its commit or a unique abbreviation of it (as a person
 * or a model copies it from `git log`); NotFoundError for a commit that did not change it.
 */
export async function historyEntryOf(
  deps: DomainDeps,
  scope: Scope,
  meta: ArtifactMeta,
  commit: string,
): Promise<HistoryEntry> {
  const history = await deps.store.history(scope.orgId, meta.id);
  const wanted = commit.trim().toLowerCase();
  const abbreviated =
    wanted.length >= MIN_ABBREVIATION && /^[0-9a-f]+$/.test(wanted)
      ? history.filter((e) => e.commit.startsWith(wanted))
      : [];
  const entry = history.find((e) => e.commit === wanted) ?? (abbreviated.length === 1 ? abbreviated[0] : undefined);
  if (!entry) {
    throw new ExplainedNotFoundError(
      `${wanted.slice(0, 40)} is no commit that changed this artifact; its history lists those that did`,
      {},
      'change',
    );
  }
  return entry;
}

/** The body of a readable artifact as of a commit; NotFoundError when it did not exist then. */
export async function bodyOf(deps: DomainDeps, scope: Scope, meta: ArtifactMeta, commit: string): Promise<string> {
  const body = isObjectId(commit) ? await deps.store.bodyAt(scope.orgId, meta.id, commit) : undefined;
  if (body === undefined) throw new NotFoundError('version');
  return body;
}

export async function bodyAt(deps: DomainDeps, scope: Scope, id: string, commit: string): Promise<string> {
  return bodyOf(deps, scope, await scope.readable(id), commit);
}

/** The body just before a change; empty for the change that created the artifact. */
export async function bodyBefore(deps: DomainDeps, scope: Scope, entry: HistoryEntry): Promise<string> {
  if (!entry.parent) return '';
  return (await deps.store.bodyAt(scope.orgId, entry.artifactId, entry.parent)) ?? '';
}

export async function changeOf(deps: DomainContext, scope: Scope, id: string, commit: string): Promise<ChangeView> {
  const meta = await scope.readable(id);
  const entry = await historyEntryOf(deps, scope, meta, commit);
  return { ...entry, diff: await changeDiff(deps, scope, entry, meta), ...messageFacts(entry.message) };
}

/** The diff one change made to its artifact: computed once, kept, and shared by every view of it. */
export function changeDiff(
  deps: DomainContext,
  scope: Scope,
  entry: HistoryEntry,
  meta: ArtifactMeta,
): Promise<string> {
  return deps.diffs.get(scope.orgId, meta.id, entry.parent ?? '', entry.commit, async () => {
    // A delete left no file at its commit: everything went.
    const after = entry.verb === 'delete' ? Promise.resolve('') : bodyOf(deps, scope, meta, entry.commit);
    const [before, afterBody] = await Promise.all([bodyBefore(deps, scope, entry), after]);
    return unifiedDiffOffLoop(before, afterBody, meta.path);
  });
}

export async function compareVersions(
  deps: DomainContext,
  scope: Scope,
  id: string,
  fromCommit: string,
  toCommit: string,
): Promise<string> {
  const meta = await scope.readable(id);
  return deps.diffs.get(scope.orgId, meta.id, fromCommit, toCommit, async () => {
    const [from, to] = await Promise.all([bodyOf(deps, scope, meta, fromCommit), bodyOf(deps, scope, meta, toCommit)]);
    return unifiedDiffOffLoop(from, to, meta.path);
  });
}
