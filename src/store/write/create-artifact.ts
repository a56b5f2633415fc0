import { artifactType, DEFAULT_REQUIREMENT_TYPE, isArtifactType } from '../../artifacts/index.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../errors.js';
import { isUuid, newId } from '../../ids.js';
import { checkDocumentSize, type OrgHandle, type WriteEnv } from '../org/index.js';
import { artifactPath, checkedTitle, headingTitle } from '../layout/index.js';
import type { ChangeContext, CommitResult, NewArtifact } from '../types.js';
import { requirementTypeOfBody } from './requirement-type.js';
import { writeArtifactFile } from './write-artifact.js';

/** Checks that need no repository: run before taking the lock. */
export function validateNewArtifact(input: NewArtifact, env: WriteEnv): { id: string; title: string } {
  if (!isArtifactType(input.type)) throw new InvalidInputError(`unknown artifact type ${JSON.stringify(input.type)}`);
  if (input.id !== undefined && !isUuid(input.id)) throw new InvalidInputError('an artifact id must be a UUID');
  if (!input.workspaceId?.trim()) throw new InvalidInputError('an artifact needs a workspace');
  checkDocumentSize(input.body, env);
  // The given title is checked on its own: one with a line break would otherwise split into a
  // heading and a stray line of body when put into the template.
  const given = checkedTitle(input.title);
  return { id: (input.id ?? newId()).toLowerCase(), title: checkedTitle(headingTitle(input.body) ?? given) };
}

/** The parent's id, checked; NotFoundError when it is not there. */
function checkedParentId(handle: OrgHandle, input: NewArtifact): string | null {
  const def = artifactType(input.type);
  const parentId = input.parentId?.toLowerCase() ?? null;
  if (def.parent === 'folder') {
    if (parentId !== null && !(isUuid(parentId) && handle.state.folders.has(parentId)))
      throw new NotFoundError('folder');
    return parentId;
  }
  const parent = parentId && isUuid(parentId) ? handle.state.metas.get(parentId) : undefined;
  if (def.parent === null) {
    if (parentId !== null) throw new InvalidInputError(`a ${def.name.toLowerCase()} has no parent`);
    return parentId;
  }
  if (!parent || parent.type !== def.parent) throw new NotFoundError('artifact');
  return parentId;
}

/** Runs under the organization's lock, with the state at `main`. */
export async function createArtifact(
  handle: OrgHandle,
  input: NewArtifact,
  ctx: ChangeContext,
  env: WriteEnv,
): Promise<CommitResult> {
  const { id, title } = validateNewArtifact(input, env);
  const def = artifactType(input.type);
  if (handle.state.metas.has(id) || handle.state.folders.has(id))
    throw new ConflictError('an artifact with this id already exists');
  if (def.type === 'product' && [...handle.state.metas.values()].some((m) => m.type === 'product')) {
    throw new InvalidInputError('an organization has exactly one product');
  }
  const parentId = checkedParentId(handle, input);
  const path = artifactPath(def, id, title);
  if (handle.state.idOfPath.has(path)) throw new ConflictError(`the path ${path} is taken`);
  const requirementType =
    def.type === 'requirement'
      ? requirementTypeOfBody(input.body, input.requirementType ?? DEFAULT_REQUIREMENT_TYPE)
      : undefined;
  return writeArtifactFile(handle, env, ctx, {
    verb: 'create',
    id,
    type: def.type,
    parentId,
    workspaceId: input.workspaceId,
    title,
    ...(requirementType ? { requirementType } : {}),
    path,
    createdAt: new Date().toISOString(),
    before: '',
    body: input.body,
    ...(input.importedFrom ? { importedFrom: input.importedFrom } : {}),
  });
}
