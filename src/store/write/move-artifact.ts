import { artifactType } from '../../artifacts/index.js';
import { InvalidInputError, NotFoundError } from '../../errors.js';
import { isoSeconds, recordArtifactChange, type OrgState } from '../catalog/index.js';
import { artifactCommitMessage, folderCommitMessage, renderArtifactFile, renderFolderFile } from '../layout/index.js';
import { readRecord, type OrgHandle, type WriteEnv } from '../org/index.js';
import type { ArtifactMeta, ChangeContext, CommitResult, FolderRecord } from '../types.js';
import { commitFiles } from './commit-file.js';
import { subtreeOf } from './delete-artifact.js';

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Where a move puts an artifact or a folder: the new parent (null: the root) and the workspace it takes. */
export interface Destination {
  readonly parentId: string | null;
  readonly workspaceId: string;
}

/** Checks that the parent is one an artifact of this type may have; NotFoundError when it is not there. */
function checkedParent(state: OrgState, meta: ArtifactMeta, parentId: string | null): void {
  const def = artifactType(meta.type);
  if (def.parent === null) throw new InvalidInputError(`the ${def.name.toLowerCase()} cannot be moved`);
  if (def.parent === 'folder') {
    if (parentId !== null && !state.folders.has(parentId)) throw new NotFoundError('folder');
  } else {
    const parent = parentId === null ? undefined : state.metas.get(parentId);
    if (!parent) throw new NotFoundError('artifact');
    if (parent.type !== def.parent) {
      throw new InvalidInputError(
        `a ${def.name.toLowerCase()} moves under a ${artifactType(def.parent).name.toLowerCase()}, not a ${artifactType(parent.type).name.toLowerCase()}`,
      );
    }
  }
  if (parentId === meta.parentId) throw new InvalidInputError(`the ${def.name.toLowerCase()} is already there`);
}

/** Artifact files rewritten with a new parent (the first) and workspace: their paths stay. */
async function rewritten(
  handle: OrgHandle,
  env: WriteEnv,
  metas: readonly ArtifactMeta[],
  to: Destination,
  movedId: string,
) {
  return Promise.all(
    metas.map(async (meta) => {
      const record = await readRecord(handle, meta.id, env.bodies);
      const parentId = meta.id === movedId ? to.parentId : meta.parentId;
      return {
        record,
        parentId,
        content: renderArtifactFile(
          {
            id: meta.id,
            type: meta.type,
            parent: parentId,
            workspace: to.workspaceId,
            title: meta.title,
            ...(meta.requirementType ? { requirementType: meta.requirementType } : {}),
            created: meta.createdAt,
          },
          record.body,
        ),
      };
    }),
  );
}

/** The catalog brought up to a move commit: each artifact under its parent, in its new workspace. */
function recordMoved(
  state: OrgState,
  env: WriteEnv,
  ctx: ChangeContext,
  commit: { commit: string; parent: string | null; blobs: string[]; timestamp: number; message: string },
  files: Awaited<ReturnType<typeof rewritten>>,
  workspaceId: string,
  offset = 0,
): CommitResult[] {
  const client = ctx.client ? { client: ctx.client } : {};
  return files.map(({ record, parentId }, i) => {
    const blob = commit.blobs[i + offset]!;
    env.bodies.set(blob, record.body);
    return recordArtifactChange(state, {
      commit: commit.commit,
      parent: commit.parent,
      blob,
      verb: 'move',
      id: record.id,
      type: record.type,
      parentId,
      workspaceId,
      title: record.title,
      ...(record.requirementType ? { requirementType: record.requirementType } : {}),
      path: record.path,
      createdAt: record.createdAt,
      author: ctx.author,
      authoredAt: isoSeconds(commit.timestamp),
      message: commit.message,
      ...client,
      added: 0,
      removed: 0,
      body: record.body,
    });
  });
}

/**
 * Gives an artifact another parent as one commit `Move <type>: <title>`: its file and its
 * descendants' files stay where they are, its frontmatter names the new parent, and the
 * descendants' name the new workspace when it is another. Runs under the organization's lock;
 * a result per artifact whose file changed, the moved one first.
 */
export async function moveArtifact(
  handle: OrgHandle,
  id: string,
  to: Destination,
  ctx: ChangeContext,
  env: WriteEnv,
): Promise<CommitResult[]> {
  const { state } = handle;
  const meta = state.metas.get(id);
  if (!meta) throw new NotFoundError('artifact');
  checkedParent(state, meta, to.parentId);
  // Descendants staying in their workspace keep their files as they are: nothing of them changes.
  const changing = subtreeOf(state, id).filter((m) => m.id === id || m.workspaceId !== to.workspaceId);
  const files = await rewritten(handle, env, changing, to, id);
  const message = artifactCommitMessage({
    verb: 'move',
    type: meta.type,
    id,
    title: meta.title,
    ...(ctx.client ? { client: ctx.client } : {}),
  });
  const parent = state.head;
  const done = await commitFiles(handle.repo, state, {
    files: files.map((f) => ({ path: f.record.path, content: f.content })),
    message,
    author: ctx.author,
    committer: env.committer,
  });
  return recordMoved(state, env, ctx, { ...done, parent, message }, files, to.workspaceId);
}

/** The folder and the folders under it, parents first. */
export function folderSubtree(state: OrgState, id: string): FolderRecord[] {
  const root = state.folders.get(id);
  if (!root) return [];
  const found = [root];
  for (let i = 0; i < found.length; i++) found.push(...state.subfolders(found[i]!.id));
  return found;
}

const folderFile = (
  folder: FolderRecord,
  changes: Partial<Pick<FolderRecord, 'name' | 'parentId' | 'workspaceId'>>,
) => {
  const next = { ...folder, ...changes };
  return {
    record: next,
    content: renderFolderFile({
      id: next.id,
      type: 'folder',
      name: next.name,
      parent: next.parentId,
      workspace: next.workspaceId,
      created: next.createdAt,
    }),
  };
};

/**
 * Puts a folder into another folder (or the root) as one commit `Move folder: <name>`: never
 * into itself or a folder under it. Its subfolders and pages take the workspace of `to`.
 */
export async function moveFolder(
  handle: OrgHandle,
  id: string,
  to: Destination,
  ctx: ChangeContext,
  env: WriteEnv,
): Promise<{ commit: string; pages: CommitResult[] }> {
  const { state } = handle;
  const folders = folderSubtree(state, id);
  const folder = folders[0];
  if (!folder) throw new NotFoundError('folder');
  if (to.parentId !== null && !state.folders.has(to.parentId)) throw new NotFoundError('folder');
  if (folders.some((f) => f.id === to.parentId))
    throw new InvalidInputError('a folder cannot move into itself or a folder under it');
  if (to.parentId === folder.parentId) throw new InvalidInputError('the folder is already there');
  const folderFiles = folders
    .filter((f) => f.id === id || f.workspaceId !== to.workspaceId)
    .map((f) => folderFile(f, { workspaceId: to.workspaceId, ...(f.id === id ? { parentId: to.parentId } : {}) }));
  const pages = folders.flatMap((f) => state.children(f.id, 'page')).filter((m) => m.workspaceId !== to.workspaceId);
  const pageFiles = await rewritten(handle, env, pages, to, '');
  const message = folderCommitMessage({
    verb: 'Move',
    id,
    name: folder.name,
    ...(ctx.client ? { client: ctx.client } : {}),
  });
  const parent = state.head;
  const done = await commitFiles(handle.repo, state, {
    files: [
      ...folderFiles.map((f) => ({ path: f.record.path, content: f.content })),
      ...pageFiles.map((f) => ({ path: f.record.path, content: f.content })),
    ],
    message,
    author: ctx.author,
    committer: env.committer,
  });
  for (const f of folderFiles) state.setFolder(f.record);
  return {
    commit: done.commit,
    pages: recordMoved(state, env, ctx, { ...done, parent, message }, pageFiles, to.workspaceId, folderFiles.length),
  };
}

/** Renames a folder as one commit `Rename folder: <new name>`; its file stays where it is. */
export async function renameFolder(
  handle: OrgHandle,
  id: string,
  name: string,
  ctx: ChangeContext,
  env: WriteEnv,
): Promise<string> {
  const { state } = handle;
  const folder = state.folders.get(id);
  if (!folder) throw new NotFoundError('folder');
  if (folder.name === name) throw new InvalidInputError('the folder already has this name');
  const file = folderFile(folder, { name });
  const { commit } = await commitFiles(handle.repo, state, {
    files: [{ path: folder.path, content: file.content }],
    message: folderCommitMessage({ verb: 'Rename', id, name, ...(ctx.client ? { client: ctx.client } : {}) }),
    author: ctx.author,
    committer: env.committer,
  });
  state.setFolder(file.record);
  return commit;
}

/** Deletes an empty folder as one commit `Delete folder: <name>`; one with pages or folders in it is refused. */
export async function deleteFolder(handle: OrgHandle, id: string, ctx: ChangeContext, env: WriteEnv): Promise<string> {
  const { state } = handle;
  const folder = state.folders.get(id);
  if (!folder) throw new NotFoundError('folder');
  const pages = state.children(id, 'page').length;
  const folders = state.subfolders(id).length;
  if (pages + folders > 0) {
    throw new InvalidInputError(
      `the folder is not empty (${plural(pages, 'page')}, ${plural(folders, 'folder')}): move or delete what is in it first`,
    );
  }
  const { commit } = await commitFiles(handle.repo, state, {
    files: [{ path: folder.path, content: null }],
    message: folderCommitMessage({
      verb: 'Delete',
      id,
      name: folder.name,
      ...(ctx.client ? { client: ctx.client } : {}),
    }),
    author: ctx.author,
    committer: env.committer,
  });
  state.removeFolder(id);
  return commit;
}
