import type { ArtifactType } from '../artifacts/index.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { HighlightedResultsView, SearchResultsView } from './types.js';
import { placeIn } from './tree.js';
import { artifactUrl } from './urls.js';

/**
 * Answered from the index and catalog as this process holds them: commits of other processes
 * (an import, another replica, native git) are caught up with in the background and reach the
 * index commit by commit, never on the way of a search. A hit the catalog no longer holds (a
 * delete seen before the index heard of it) is left out.
 */
export async function searchArtifacts(
  deps: DomainDeps,
  scope: Scope,
  input: { query: string; artifactTypes?: readonly ArtifactType[]; limit?: number },
): Promise<SearchResultsView> {
  // All at once: after a restart, opening the organization (its saved catalog) and restoring its
  // saved index take about as long each.
  const [catalog, index, workspaceIds] = await Promise.all([
    deps.store.current(scope.orgId),
    deps.search.forOrg(scope.orgId),
    scope.readableWorkspaceIds(),
  ]);
  const { hits: found, notice } = await index.search({
    query: input.query,
    workspaceIds,
    limit: input.limit ?? 10,
    ...(input.artifactTypes?.length ? { types: input.artifactTypes } : {}),
  });
  const hits = found.filter((hit) => catalog.meta(hit.id) !== undefined);
  const results = hits.map((hit) => ({
    id: hit.id,
    type: hit.type,
    title: hit.title,
    preview: hit.preview,
    url: artifactUrl(deps.baseUrl, scope.orgId, hit.id),
    score: hit.score,
  }));
  return notice ? { results, notice } : { results };
}

/** Search for people: each result also says which words of its title and preview matched. */
export async function searchHighlighted(
  deps: DomainDeps,
  scope: Scope,
  input: { query: string; artifactTypes?: readonly ArtifactType[]; limit?: number },
): Promise<HighlightedResultsView> {
  const [{ results, notice }, index, view] = await Promise.all([
    searchArtifacts(deps, scope, input),
    deps.search.forOrg(scope.orgId),
    deps.store.current(scope.orgId),
  ]);
  const productId = view.children(null, 'product')[0]?.id;
  const highlighted = results.map((r) => ({
    ...r,
    titleMatches: index.matchRanges(input.query, r.title),
    previewMatches: index.matchRanges(input.query, r.preview),
    crumbs: placeIn(view, scope, productId, r.id)?.crumbs ?? [],
  }));
  return notice ? { results: highlighted, notice } : { results: highlighted };
}
