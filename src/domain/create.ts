import {
  artifactType,
  DEFAULT_REQUIREMENT_TYPE,
  defaultTitle,
  type ArtifactType,
  type ArtifactTypeDef,
  headingTitle,
  type RequirementType,
} from '../artifacts/index.js';
import { InvalidInputError } from '../errors.js';
import { announceChange } from './announce.js';
import { linksOf } from './links.js';
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

/** Without content: the type's template, headed by the title (an untitled page starts truly empty). */
function fromTemplate(
  def: ArtifactTypeDef,
  input: CreateInput,
  requirementType: RequirementType | undefined,
): { title: string; body: string } {
  const givenTitle = input.title?.trim() || undefined;
  const title = givenTitle ?? defaultTitle(def);
  const templateTitle = def.type === 'page' ? (givenTitle ?? '') : title;
  return { title, body: def.template({ title: templateTitle, ...(requirementType ? { requirementType } : {}) }) };
}

/**
 * The whole document given: its first `# ` heading is the title. A title given as well must be
 * that heading; a document without a heading gets the title as one (pages may stay headless).
 */
function fromContent(def: ArtifactTypeDef, input: CreateInput, content: string): { title: string; body: string } {
  const body = content.replace(/\r\n/g, '\n');
  const givenTitle = input.title?.trim() || undefined;
  const heading = headingTitle(body);
  if (heading !== undefined) {
    if (givenTitle !== undefined && givenTitle !== heading) {
      throw new InvalidInputError(
        `the title ${JSON.stringify(givenTitle)} and the content's first heading ${JSON.stringify(heading)} differ: give one of them, or make them the same`,
      );
    }
    return { title: heading, body };
  }
  if (givenTitle === undefined && def.type === 'page') return { title: defaultTitle(def), body };
  const title = givenTitle ?? defaultTitle(def);
  return { title, body: `# ${title}\n\n${body.replace(/^\n+/, '')}` };
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
  const requirementType = type === 'requirement' ? (input.requirementType ?? DEFAULT_REQUIREMENT_TYPE) : undefined;
  const { title, body } =
    input.content === undefined ? fromTemplate(def, input, requirementType) : fromContent(def, input, input.content);
  const created = await deps.store.create(
    scope.orgId,
    {
      ...(input.id ? { id: input.id } : {}),
      type,
      parentId,
      workspaceId,
      title,
      body,
      ...(requirementType ? { requirementType } : {}),
      ...(input.importedFrom ? { importedFrom: input.importedFrom } : {}),
    },
    scope.changeContext,
  );
  await announceChange(deps, scope, 'create', created);
  const { artifact } = created;
  // The new document's links (and what already linked to its title), so that an assistant can check them.
  return { ...artifactView(deps.baseUrl, scope.orgId, artifact, 'full'), ...(await linksOf(deps, scope, artifact.id)) };
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
