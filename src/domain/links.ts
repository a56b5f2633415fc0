import { wikiKey, wikiTitleOf } from '../artifacts/index.js';
import type { ArtifactMeta, CatalogView } from '../store/types.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { ArtifactLink, ArtifactRef, UnresolvedLink } from './types.js';

type OrgLinks = Awaited<ReturnType<DomainDeps['store']['links']>>;

const refOf = (meta: { id: string; type: ArtifactRef['type']; title: string }): ArtifactRef => ({
  id: meta.id,
  type: meta.type,
  title: meta.title,
});

/**
 * The readable artifacts a wiki key names for this actor. Only those they can read count, so
 * that a title's other bearers in workspaces they cannot see never show.
 */
function readableTitled(index: OrgLinks, view: CatalogView, scope: Scope, key: string): ArtifactMeta[] {
  return index
    .titled(key)
    .map((id) => view.meta(id))
    .filter((meta): meta is ArtifactMeta => meta !== undefined && scope.canRead(meta.workspaceId));
}

/**
 * An artifact's links both ways, as the actor may see them: by id (a web URL or `specbase://`
 * URI), or by title (`[[Title]]`, resolved now: a title that one readable artifact bears). Targets
 * and sources they cannot read are left out, as if they did not exist (their existence never
 * leaks); a target deleted since shows as deleted; a link that leads nowhere is listed with why.
 */
export async function linksOf(
  deps: DomainDeps,
  scope: Scope,
  id: string,
): Promise<{ links: ArtifactLink[]; referencedBy: ArtifactRef[]; unresolvedLinks: UnresolvedLink[] }> {
  const [index, view] = await Promise.all([deps.store.links(scope.orgId), deps.store.view(scope.orgId)]);
  const targets = index.linksFrom(id);
  const missing = targets.some((t) => wikiTitleOf(t) === undefined && !view.meta(t));
  const deleted = missing ? new Map((await deps.store.deleted(scope.orgId)).map((d) => [d.id, d])) : new Map();
  const links = new Map<string, ArtifactLink>();
  const unresolvedLinks: UnresolvedLink[] = [];
  for (const target of targets) {
    const title = wikiTitleOf(target);
    if (title !== undefined) {
      const bearers = readableTitled(index, view, scope, target);
      if (bearers.length === 1) links.set(bearers[0]!.id, refOf(bearers[0]!));
      else
        unresolvedLinks.push({ link: `[[${title}]]`, reason: bearers.length ? 'ambiguous title' : 'no such artifact' });
      continue;
    }
    const meta = view.meta(target);
    if (meta && scope.canRead(meta.workspaceId)) {
      links.set(meta.id, refOf(meta));
      continue;
    }
    const gone = deleted.get(target);
    if (gone && scope.canRead(gone.workspaceId)) links.set(gone.id, { ...refOf(gone), deleted: true });
    else unresolvedLinks.push({ link: target, reason: 'no such artifact' });
  }
  const self = view.meta(id);
  // A wiki link names this artifact only while its title is one readable artifact's.
  const byTitle =
    self && readableTitled(index, view, scope, wikiKey(self.title)).length === 1
      ? index.linksTo(wikiKey(self.title))
      : [];
  const referencedBy = new Map<string, ArtifactRef>();
  for (const source of [...index.linksTo(id), ...byTitle]) {
    const meta = view.meta(source);
    if (meta && meta.id !== id && scope.canRead(meta.workspaceId)) referencedBy.set(meta.id, refOf(meta));
  }
  return { links: [...links.values()], referencedBy: [...referencedBy.values()], unresolvedLinks };
}
