import { ConflictError, InvalidInputError } from '../errors.js';
import { commitFile } from './commit-file.js';
import { renderArtifactFile } from './frontmatter.js';
import { artifactCommitMessage } from './message.js';
import { checkDocumentSize, readRecord, type OrgHandle, type WriteEnv } from './org-handle.js';
import { isoSeconds, recordArtifactChange } from './record-change.js';
import { checkedTitle, headingTitle } from './title.js';
import type { BodyChange, ChangeContext, CommitResult } from './types.js';

const VERBS: readonly string[] = ['edit', 'revert', 'restore'];

/** Checks that need no repository: run before taking the lock. */
export function validateBodyChange(change: BodyChange, env: WriteEnv): void {
  if (!VERBS.includes(change.verb)) throw new InvalidInputError(`an update is an edit, a revert or a restore, not ${JSON.stringify(change.verb)}`);
  if (change.sourceCommit !== undefined && !/^[0-9a-f]{40}$/.test(change.sourceCommit)) {
    throw new InvalidInputError('the source commit must be a full commit id');
  }
  checkDocumentSize(change.body, env);
  const heading = headingTitle(change.body);
  if (heading !== undefined) checkedTitle(heading);
}

/** Runs under the organization's lock, with the state at `main`. */
export async function updateArtifact(
  handle: OrgHandle,
  id: string,
  change: BodyChange,
  ctx: ChangeContext,
  env: WriteEnv,
): Promise<CommitResult> {
  validateBodyChange(change, env);
  const current = await readRecord(handle, id, env.bodies);
  if (change.expectedVersion !== undefined && change.expectedVersion !== current.version) {
    throw new ConflictError(
      `the artifact changed since version ${change.expectedVersion}; its current version is ${current.version}`,
      { currentVersion: current.version },
    );
  }
  if (change.body === current.body) throw new InvalidInputError('no change: the document already has this content');
  const heading = headingTitle(change.body);
  // A body without a heading keeps its last title: listings and paths need one.
  const title = heading === undefined ? current.title : checkedTitle(heading);
  const message = artifactCommitMessage({
    verb: change.verb, type: current.type, id, title,
    ...(ctx.client ? { client: ctx.client } : {}),
    ...(change.sourceCommit ? { sourceCommit: change.sourceCommit } : {}),
  });
  const frontmatter = {
    id, type: current.type, parent: current.parentId, workspace: current.workspaceId, title, created: current.createdAt,
    ...(current.requirementType ? { requirementType: current.requirementType } : {}),
  };
  const parent = handle.state.head;
  const { commit, blob, timestamp } = await commitFile(handle.repo, handle.state, {
    path: current.path,
    content: renderArtifactFile(frontmatter, change.body),
    message,
    author: ctx.author,
    committer: env.committer,
  });
  env.bodies.set(blob, change.body);
  return recordArtifactChange(handle.state, {
    commit, parent, blob, verb: change.verb, id, type: current.type, parentId: current.parentId,
    workspaceId: current.workspaceId, title,
    ...(current.requirementType ? { requirementType: current.requirementType } : {}),
    path: current.path, createdAt: current.createdAt, author: ctx.author, authoredAt: isoSeconds(timestamp), message,
    ...(ctx.client ? { client: ctx.client } : {}),
    before: current.body, body: change.body,
  });
}
