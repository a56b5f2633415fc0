import { NotFoundError } from '../errors.js';
import { unifiedDiff } from '../patch/index.js';
import type { HistoryEntry } from '../store/types.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { ChangeView } from './types.js';

export async function artifactHistory(deps: DomainDeps, scope: Scope, id: string): Promise<HistoryEntry[]> {
  const meta = await scope.readable(id);
  return deps.store.history(scope.orgId, meta.id);
}

/** One entry of the artifact's history; NotFoundError for a commit that did not change it. */
export async function historyEntry(deps: DomainDeps, scope: Scope, id: string, commit: string): Promise<HistoryEntry> {
  const entry = (await artifactHistory(deps, scope, id)).find((e) => e.commit === commit);
  if (!entry) throw new NotFoundError('change');
  return entry;
}

export async function bodyAt(deps: DomainDeps, scope: Scope, id: string, commit: string): Promise<string> {
  const meta = await scope.readable(id);
  const body = /^[0-9a-f]{40}$/.test(commit) ? await deps.store.bodyAt(scope.orgId, meta.id, commit) : undefined;
  if (body === undefined) throw new NotFoundError('version');
  return body;
}

/** The body just before a change; empty for the change that created the artifact. */
export async function bodyBefore(deps: DomainDeps, scope: Scope, entry: HistoryEntry): Promise<string> {
  if (!entry.parent) return '';
  return (await deps.store.bodyAt(scope.orgId, entry.artifactId, entry.parent)) ?? '';
}

export async function changeOf(deps: DomainDeps, scope: Scope, id: string, commit: string): Promise<ChangeView> {
  const entry = await historyEntry(deps, scope, id, commit);
  const [before, after] = await Promise.all([bodyBefore(deps, scope, entry), bodyAt(deps, scope, id, commit)]);
  const meta = await scope.readable(id);
  return { ...entry, diff: unifiedDiff(before, after, meta.path) };
}

export async function compareVersions(
  deps: DomainDeps,
  scope: Scope,
  id: string,
  fromCommit: string,
  toCommit: string,
): Promise<string> {
  const meta = await scope.readable(id);
  const [from, to] = await Promise.all([bodyAt(deps, scope, id, fromCommit), bodyAt(deps, scope, id, toCommit)]);
  return unifiedDiff(from, to, meta.path);
}

/** Recent changes across the organization, limited to what the actor may read. */
export async function activity(deps: DomainDeps, scope: Scope, limit: number): Promise<HistoryEntry[]> {
  const [entries, catalog] = await Promise.all([
    deps.store.activity(scope.orgId, { limit: limit * 4 }),
    deps.store.catalog(scope.orgId),
  ]);
  const workspaceOf = new Map(catalog.map((m) => [m.id, m.workspaceId]));
  return entries
    .filter((e) => {
      const workspaceId = workspaceOf.get(e.artifactId);
      return workspaceId !== undefined && scope.canRead(workspaceId);
    })
    .slice(0, limit);
}
