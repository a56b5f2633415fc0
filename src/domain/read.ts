import type { ArtifactType } from '../artifacts/index.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { ArtifactView, ReadMode } from './types.js';
import { linksOf } from './links.js';
import { artifactView } from './views.js';

export async function readArtifact(
  deps: DomainDeps,
  scope: Scope,
  type: ArtifactType,
  id: string,
  mode: ReadMode = 'concise',
): Promise<ArtifactView> {
  const meta = await scope.readable(id, type);
  const [record, links] = await Promise.all([deps.store.read(scope.orgId, meta.id), linksOf(deps, scope, meta.id)]);
  return { ...artifactView(deps.baseUrl, scope.orgId, record, mode), ...links };
}

/** An artifact of any type, by id alone (MCP resources name artifacts without their type). */
export async function readAnyArtifact(
  deps: DomainDeps,
  scope: Scope,
  id: string,
  mode: ReadMode = 'full',
): Promise<ArtifactView> {
  const meta = await scope.readable(id);
  return artifactView(deps.baseUrl, scope.orgId, await deps.store.read(scope.orgId, meta.id), mode);
}

export async function readProduct(deps: DomainDeps, scope: Scope, mode: ReadMode = 'concise'): Promise<ArtifactView> {
  const product = await scope.product();
  const [record, links] = await Promise.all([
    deps.store.read(scope.orgId, product.id),
    linksOf(deps, scope, product.id),
  ]);
  return { ...artifactView(deps.baseUrl, scope.orgId, record, mode), ...links };
}
