import { checkDocumentText, countLineChangesOffLoop } from '../../patch/index.js';
import { artifactCommitMessage, renderArtifactFile } from '../layout/index.js';
import type { OrgHandle, WriteEnv } from '../org/index.js';
import { isoSeconds, recordArtifactChange, type ArtifactChange } from '../catalog/index.js';
import type { ChangeContext, CommitResult } from '../types.js';
import { commitFile } from './commit-file.js';

/** One artifact's file as it will be after the commit, and its body before. */
export type ArtifactFileWrite = Omit<
  ArtifactChange,
  'commit' | 'parent' | 'blob' | 'author' | 'authoredAt' | 'message' | 'client' | 'added' | 'removed'
> & {
  readonly before: string;
  readonly sourceCommit?: string;
  readonly summary?: string;
  readonly importedFrom?: string;
};

/**
 * The one way an artifact's file changes: frontmatter and message from the same facts, one
 * commit, then the caches brought up to it. The caller holds the organization's lock. Every
 * body passes the one character rule here, whichever path computed it (a patch, the web
 * editor, a revert or a restore, a create).
 */
export async function writeArtifactFile(
  handle: OrgHandle,
  env: WriteEnv,
  ctx: ChangeContext,
  file: ArtifactFileWrite,
): Promise<CommitResult> {
  checkDocumentText(file.before, file.body);
  const requirementType = file.requirementType ? { requirementType: file.requirementType } : {};
  const client = ctx.client ? { client: ctx.client } : {};
  const frontmatter = {
    id: file.id,
    type: file.type,
    parent: file.parentId,
    workspace: file.workspaceId,
    title: file.title,
    created: file.createdAt,
    ...requirementType,
  };
  const message = artifactCommitMessage({
    verb: file.verb,
    type: file.type,
    id: file.id,
    title: file.title,
    ...client,
    ...(file.sourceCommit ? { sourceCommit: file.sourceCommit } : {}),
    ...(file.summary ? { summary: file.summary } : {}),
    ...(file.importedFrom ? { importedFrom: file.importedFrom } : {}),
  });
  // Counted before the commit, so that catalog and history follow it in the same turn.
  const lines = await countLineChangesOffLoop(file.before, file.body, false);
  const parent = handle.state.head;
  const { commit, blob, timestamp } = await commitFile(handle.repo, handle.state, {
    path: file.path,
    content: renderArtifactFile(frontmatter, file.body),
    message,
    author: ctx.author,
    committer: env.committer,
  });
  env.bodies.set(blob, file.body);
  return recordArtifactChange(handle.state, {
    commit,
    parent,
    blob,
    verb: file.verb,
    id: file.id,
    type: file.type,
    parentId: file.parentId,
    workspaceId: file.workspaceId,
    title: file.title,
    ...requirementType,
    path: file.path,
    createdAt: file.createdAt,
    author: ctx.author,
    authoredAt: isoSeconds(timestamp),
    message,
    ...client,
    ...lines,
    body: file.body,
  });
}
