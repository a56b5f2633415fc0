import { artifactType } from '../../artifacts/index.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../errors.js';
import { countLineChangesOffLoop } from '../../patch/index.js';
import { isoSeconds, recordArtifactChange, type OrgState } from '../catalog/index.js';
import { changedFiles, readBlobText, readCommitObject, TreeCache } from '../git/index.js';
import {
  artifactCommitMessage,
  parseRepositoryFile,
  renderArtifactFile,
  type ArtifactFrontmatter,
} from '../layout/index.js';
import type { OrgHandle, WriteEnv } from '../org/index.js';
import type { ChangeContext, CommitResult } from '../types.js';
import { commitFiles } from './commit-file.js';

interface DeletedFile {
  readonly path: string;
  readonly frontmatter: ArtifactFrontmatter;
  readonly body: string;
}

/** The artifact files a commit removed, as they were just before it. */
async function filesRemovedBy(handle: OrgHandle, commit: string): Promise<DeletedFile[]> {
  const { repo } = handle;
  const object = await readCommitObject(repo, commit);
  const parent = object.parent[0] ? await readCommitObject(repo, object.parent[0]) : undefined;
  const changes = await changedFiles(repo, parent?.tree ?? null, object.tree, new TreeCache());
  const files: DeletedFile[] = [];
  for (const change of changes) {
    if (change.after || !change.before || !change.path.endsWith('.md')) continue;
    const file = parseRepositoryFile(await readBlobText(repo, change.before), change.path);
    if (file.kind === 'artifact') files.push({ path: change.path, frontmatter: file.frontmatter, body: file.body });
  }
  return files;
}

/** `id` and the files of its descendants among `files`, parents first. */
function withDescendants(files: readonly DeletedFile[], id: string): DeletedFile[] {
  const top = files.find((f) => f.frontmatter.id === id);
  if (!top) return [];
  const found = [top];
  for (let i = 0; i < found.length; i++)
    found.push(...files.filter((f) => f.frontmatter.parent === found[i]!.frontmatter.id));
  return found;
}

/**
 * Where `top` comes back: under its parent, in the parent's workspace; a page whose folder was
 * deleted since (folders are not restored) at the top level, in `rootWorkspaceId`. Refused while
 * a parent artifact is deleted.
 */
function placementOf(
  state: OrgState,
  top: ArtifactFrontmatter,
  rootWorkspaceId: string,
): { parent: string | null; workspace: string } {
  const { parent } = top;
  if (parent === null) return { parent, workspace: top.workspace };
  const inFolder = artifactType(top.type).parent === 'folder';
  const live = inFolder ? state.folders.get(parent) : state.metas.get(parent);
  if (live) return { parent, workspace: live.workspaceId };
  if (inFolder) return { parent: null, workspace: rootWorkspaceId };
  const deleted = state.deletes.get(parent)?.entry;
  const what = deleted
    ? `its parent ${artifactType(deleted.artifactType).name.toLowerCase()} "${deleted.title}"`
    : 'its parent';
  throw new InvalidInputError(
    `the ${artifactType(top.type).name.toLowerCase()} cannot be restored while ${what} is deleted; restore that first`,
  );
}

/**
 * Brings a deleted artifact back with its id and content, and the descendants deleted with it,
 * as one commit `Restore <type>: <title>` that writes their files back at their paths. A subtree
 * comes back into its parent's workspace. Runs under the organization's lock; returns a result
 * per artifact restored, the one named first.
 */
export async function restoreDeleted(
  handle: OrgHandle,
  id: string,
  options: { readonly rootWorkspaceId: string },
  ctx: ChangeContext,
  env: WriteEnv,
): Promise<CommitResult[]> {
  const { state } = handle;
  if (state.metas.has(id)) throw new InvalidInputError('the artifact is not deleted');
  const deleted = state.deletes.get(id);
  if (!deleted) throw new NotFoundError('artifact');
  const files = withDescendants(await filesRemovedBy(handle, deleted.entry.commit), id);
  const top = files[0];
  if (!top) throw new NotFoundError('artifact');
  const { parent: topParent, workspace } = placementOf(state, top.frontmatter, options.rootWorkspaceId);
  // A descendant brought back by another restore since stays as it is.
  const restored = files.filter((f) => !state.metas.has(f.frontmatter.id) && state.deletes.has(f.frontmatter.id));
  for (const file of restored) {
    if (state.idOfPath.has(file.path)) throw new ConflictError(`the path ${file.path} is taken; nothing was restored`);
  }
  const client = ctx.client ? { client: ctx.client } : {};
  const message = artifactCommitMessage({
    verb: 'restore',
    type: top.frontmatter.type,
    id,
    title: top.frontmatter.title,
    ...client,
  });
  const frontmatters = restored.map((f) => ({
    ...f.frontmatter,
    workspace,
    ...(f === top ? { parent: topParent } : {}),
  }));
  const lines = await Promise.all(restored.map((f) => countLineChangesOffLoop('', f.body, false)));
  const parent = state.head;
  const { commit, blobs, timestamp } = await commitFiles(handle.repo, state, {
    files: restored.map((f, i) => ({ path: f.path, content: renderArtifactFile(frontmatters[i]!, f.body) })),
    message,
    author: ctx.author,
    committer: env.committer,
  });
  return restored.map((file, i) => {
    const fm = frontmatters[i]!;
    env.bodies.set(blobs[i]!, file.body);
    return recordArtifactChange(state, {
      commit,
      parent,
      blob: blobs[i]!,
      verb: 'restore',
      id: fm.id,
      type: fm.type,
      parentId: fm.parent,
      workspaceId: fm.workspace,
      title: fm.title,
      ...(fm.requirementType ? { requirementType: fm.requirementType } : {}),
      path: file.path,
      createdAt: fm.created,
      author: ctx.author,
      authoredAt: isoSeconds(timestamp),
      message,
      ...client,
      ...lines[i]!,
      body: file.body,
    });
  });
}
