import { isUuid } from '../ids.js';
import type { DeletedArtifact, HistoryEntry } from '../store/types.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { TitleAsOf, TitleQuery } from './types.js';

const isHistory = (found: readonly HistoryEntry[] | DeletedArtifact): found is readonly HistoryEntry[] =>
  Array.isArray(found);

/**
 * The title each artifact had at a moment of its history: the one its change at `commit` gave
 * it, else the one it had at `at`. A deleted artifact answers with the title it was deleted
 * under; one the actor may not read (or never existed) answers undefined, as if unknown.
 */
export async function titlesAsOf(
  deps: DomainDeps,
  scope: Scope,
  queries: readonly TitleQuery[],
): Promise<(TitleAsOf | undefined)[]> {
  const ids = [...new Set(queries.map((q) => q.artifactId.toLowerCase()).filter(isUuid))];
  const known = new Map<string, readonly HistoryEntry[] | DeletedArtifact>();
  let deleted: Map<string, DeletedArtifact> | undefined;
  for (const id of ids) {
    const meta = await deps.store.meta(scope.orgId, id);
    if (meta) {
      if (scope.canRead(meta.workspaceId)) known.set(id, await deps.store.history(scope.orgId, id));
      continue;
    }
    deleted ??= new Map((await deps.store.deleted(scope.orgId)).map((d) => [d.id, d]));
    const gone = deleted.get(id);
    if (gone && scope.canRead(gone.workspaceId)) known.set(id, gone);
  }
  return queries.map((q) => {
    const found = known.get(q.artifactId.toLowerCase());
    if (!found) return undefined;
    if (!isHistory(found)) return { title: found.title, deleted: true };
    // Newest change first: the change itself, else the last one made by then, else the first.
    const history = found;
    const entry =
      (q.commit ? history.find((e) => e.commit === q.commit) : undefined) ??
      history.find((e) => Date.parse(e.authoredAt) <= Date.parse(q.at)) ??
      history.at(-1);
    return entry && { title: entry.title, deleted: false };
  });
}
