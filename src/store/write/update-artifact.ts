import type { RequirementType } from '../../artifacts/index.js';
import { ConflictError, InvalidInputError } from '../../errors.js';
import { isObjectId } from '../../ids.js';
import { checkedSummary, checkedTitle, headingTitle } from '../layout/index.js';
import { checkDocumentSize, readRecord, type OrgHandle, type WriteEnv } from '../org/index.js';
import type { ArtifactRecord, BodyChange, ChangeContext, CommitResult } from '../types.js';
import { requirementTypeOfBody } from './requirement-type.js';
import { writeArtifactFile } from './write-artifact.js';

const VERBS: readonly string[] = ['edit', 'revert', 'restore'];
const HEADING_TITLE = 'title (the first "# " heading)';

/** Checks that need no repository: run before taking the lock (a computed body is checked once computed). */
export function validateBodyChange(change: BodyChange, env: WriteEnv): void {
  if (!VERBS.includes(change.verb))
    throw new InvalidInputError(`an update is an edit, a revert or a restore, not ${JSON.stringify(change.verb)}`);
  if (change.sourceCommit !== undefined && !isObjectId(change.sourceCommit)) {
    throw new InvalidInputError('the source commit must be a full commit id');
  }
  checkedSummary(change.summary);
  if (typeof change.body === 'string') validateBody(change.body, env);
}

function validateBody(body: string, env: WriteEnv): void {
  checkDocumentSize(body, env);
  const heading = headingTitle(body);
  if (heading !== undefined) checkedTitle(heading, HEADING_TITLE);
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
  const body = typeof change.body === 'string' ? change.body : await change.body(current);
  validateBody(body, env);
  if (body === current.body) throw new InvalidInputError('no change: the document already has this content');
  const heading = headingTitle(body);
  // A body without a heading keeps its last title: listings and paths need one.
  const title = heading === undefined ? current.title : checkedTitle(heading, HEADING_TITLE);
  return writeArtifactFile(handle, env, ctx, {
    verb: change.verb,
    id,
    type: current.type,
    parentId: current.parentId,
    workspaceId: current.workspaceId,
    title,
    ...requirementTypeOf(current, body),
    path: current.path,
    createdAt: current.createdAt,
    before: current.body,
    body,
    ...(change.sourceCommit ? { sourceCommit: change.sourceCommit } : {}),
    ...(change.summary ? { summary: change.summary } : {}),
  });
}

function requirementTypeOf(current: ArtifactRecord, body: string): { requirementType?: RequirementType } {
  if (current.type !== 'requirement') return {};
  const requirementType = requirementTypeOfBody(body, current.requirementType);
  return requirementType ? { requirementType } : {};
}
