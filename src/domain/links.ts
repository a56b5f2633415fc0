import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { ArtifactLink, ArtifactRef } from './types.js';

/**
 * An artifact's links both ways, as the actor may see them: targets and sources they cannot
 * read are left out (their existence never leaks); a target deleted since shows as deleted.
 */
export async function linksOf(
  deps: DomainDeps,
  scope: Scope,
  id: string,
): Promise<{ links: ArtifactLink[]; referencedBy: ArtifactRef[] }> {
  const [index, view] = await Promise.all([deps.store.links(scope.orgId), deps.store.view(scope.orgId)]);
  const targets = index.linksFrom(id);
  const missing = targets.some((t) => !view.meta(t));
  const deleted = missing ? new Map((await deps.store.deleted(scope.orgId)).map((d) => [d.id, d])) : new Map();
  const links: ArtifactLink[] = [];
  for (const target of targets) {
    const meta = view.meta(target);
    if (meta) {
      if (scope.canRead(meta.workspaceId)) links.push({ id: meta.id, type: meta.type, title: meta.title });
      continue;
    }
    const gone = deleted.get(target);
    if (gone && scope.canRead(gone.workspaceId))
      links.push({ id: gone.id, type: gone.type, title: gone.title, deleted: true });
  }
  const referencedBy: ArtifactRef[] = [];
  for (const source of index.linksTo(id)) {
    const meta = view.meta(source);
    if (meta && scope.canRead(meta.workspaceId)) referencedBy.push({ id: meta.id, type: meta.type, title: meta.title });
  }
  return { links, referencedBy };
}
