import { ConflictError, InvalidInputError, NotFoundError } from '../../errors.js';
import { isUuid, newId } from '../../ids.js';
import { checkedTitle, folderCommitMessage, folderPath, renderFolderFile } from '../layout/index.js';
import type { OrgHandle, WriteEnv } from '../org/index.js';
import type { ChangeContext, FolderRecord, NewFolder } from '../types.js';
import { commitFile } from './commit-file.js';

/** Checks that need no repository: run before taking the lock. */
export function validateNewFolder(input: NewFolder): { id: string; name: string } {
  if (input.id !== undefined && !isUuid(input.id)) throw new InvalidInputError('a folder id must be a UUID');
  if (!input.workspaceId?.trim()) throw new InvalidInputError('a folder needs a workspace');
  return { id: (input.id ?? newId()).toLowerCase(), name: checkedTitle(input.name, 'folder name') };
}

/** Runs under the organization's lock, with the state at `main`. */
export async function createFolder(
  handle: OrgHandle,
  input: NewFolder,
  ctx: ChangeContext,
  env: WriteEnv,
): Promise<FolderRecord> {
  const { id, name } = validateNewFolder(input);
  const { state } = handle;
  if (state.folders.has(id) || state.metas.has(id)) throw new ConflictError('a folder with this id already exists');
  const parentId = input.parentId?.toLowerCase() ?? null;
  const parent = parentId === null ? undefined : state.folders.get(parentId);
  if (parentId !== null && !parent) throw new NotFoundError('folder');
  const path = folderPath(id, name);
  if (state.idOfPath.has(path)) throw new ConflictError(`the path ${path} is taken`);
  const createdAt = new Date().toISOString();
  const record: FolderRecord = { id, name, parentId, workspaceId: input.workspaceId, path, createdAt };
  await commitFile(handle.repo, state, {
    path: record.path,
    content: renderFolderFile({
      id,
      type: 'folder',
      name,
      parent: parentId,
      workspace: input.workspaceId,
      created: createdAt,
    }),
    message: folderCommitMessage({ id, name, ...(ctx.client ? { client: ctx.client } : {}) }),
    author: ctx.author,
    committer: env.committer,
  });
  state.setFolder(record);
  return record;
}
