import {
  artifactType,
  DEFAULT_REQUIREMENT_TYPE,
  defaultTitle,
  type ArtifactType,
  type ArtifactTypeDef,
} from '../artifacts/index.js';
import { InvalidInputError } from '../errors.js';
import { announceChange } from './announce.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { ArtifactView, CreateInput, FolderView } from './types.js';
import { artifactView } from './views.js';

/** Where a new artifact goes: its parent id and the workspace it inherits. */
async function placement(
  deps: DomainDeps,
  scope: Scope,
  def: ArtifactTypeDef,
  parentId: string | undefined,
): Promise<{ parentId: string | null; workspaceId: string }> {
  if (def.parent === 'folder') {
    if (parentId === undefined) return { parentId: null, workspaceId: await scope.defaultWorkspaceId() };
    const folder = await scope.readableFolder(parentId);
    return { parentId: folder.id, workspaceId: folder.workspaceId };
  }
  if (!def.parent || parentId === undefined) {
    throw new InvalidInputError(`a ${def.name.toLowerCase()} needs its parent ${def.parent ?? 'artifact'}`);
  }
  const parent = await scope.readable(parentId, def.parent);
  return { parentId: parent.id, workspaceId: parent.workspaceId };
}

export async function createArtifact(
  deps: DomainDeps,
  scope: Scope,
  type: ArtifactType,
  input: CreateInput,
): Promise<ArtifactView> {
  const def = artifactType(type);
  if (!def.creatable) throw new InvalidInputError(`a ${def.name.toLowerCase()} cannot be created`);
  const { parentId, workspaceId } = await placement(deps, scope, def, input.parentId);
  scope.assertWrite(workspaceId);
  const givenTitle = input.title?.trim() || undefined;
  const title = givenTitle ?? defaultTitle(def);
  const requirementType = type === 'requirement' ? (input.requirementType ?? DEFAULT_REQUIREMENT_TYPE) : undefined;
  // An untitled page starts truly empty; other types always open with their title heading.
  const templateTitle = type === 'page' ? (givenTitle ?? '') : title;
  const body = def.template({ title: templateTitle, ...(requirementType ? { requirementType } : {}) });
  const created = await deps.store.create(
    scope.orgId,
    { type, parentId, workspaceId, title, body, ...(requirementType ? { requirementType } : {}) },
    scope.changeContext,
  );
  await announceChange(deps, scope, 'create', created);
  const { artifact } = created;
  return artifactView(deps.baseUrl, scope.orgId, artifact, 'full');
}

export async function createFolder(
  deps: DomainDeps,
  scope: Scope,
  input: { name: string; parentFolderId?: string; workspaceId?: string },
): Promise<FolderView> {
  const name = input.name.trim();
  if (!name) throw new InvalidInputError('a folder needs a name');
  const parent = input.parentFolderId === undefined ? undefined : await scope.readableFolder(input.parentFolderId);
  const workspaceId = parent?.workspaceId ?? input.workspaceId ?? (await scope.defaultWorkspaceId());
  if (!(await scope.readableWorkspaceIds()).has(workspaceId)) throw new InvalidInputError('unknown workspace');
  scope.assertWrite(workspaceId);
  const folder = await deps.store.createFolder(
    scope.orgId,
    { name, parentId: parent?.id ?? null, workspaceId },
    scope.changeContext,
  );
  return { id: folder.id, name: folder.name, parentFolderId: folder.parentId, pageCount: 0 };
}
