import { artifactType } from '../../artifacts/index.js';
import { InvalidInputError, NotFoundError } from '../../errors.js';
import { countLineChangesOffLoop } from '../../patch/index.js';
import { isoSeconds, recordArtifactRemoval, type OrgState } from '../catalog/index.js';
import { artifactCommitMessage } from '../layout/index.js';
import { readRecord, type OrgHandle, type WriteEnv } from '../org/index.js';
import type { ArtifactMeta, ChangeContext, CommitResult } from '../types.js';
import { commitFiles } from './commit-file.js';

/** An artifact and its descendants, parents before children (the order a restore writes them back). */
export function subtreeOf(state: Pick<OrgState, 'meta' | 'children'>, id: string): ArtifactMeta[] {
  const root = state.meta(id);
  if (!root) return [];
  const found = [root];
  for (let i = 0; i < found.length; i++) found.push(...state.children(found[i]!.id));
  return found;
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * Removes an artifact's file, and with `recursive` its descendants' files, as one commit
 * `Delete <type>: <title>`. Without `recursive`, an artifact with children is refused. Runs under
 * the organization's lock; returns a result per artifact removed, the one named first.
 */
export async function deleteArtifact(
  handle: OrgHandle,
  id: string,
  options: { readonly recursive: boolean },
  ctx: ChangeContext,
  env: WriteEnv,
): Promise<CommitResult[]> {
  const { state } = handle;
  const subtree = subtreeOf(state, id);
  const top = subtree[0];
  if (!top) throw new NotFoundError('artifact');
  const name = artifactType(top.type).name.toLowerCase();
  if (top.type === 'product') throw new InvalidInputError('the product cannot be deleted');
  const descendants = subtree.length - 1;
  if (descendants > 0 && !options.recursive) {
    throw new InvalidInputError(
      `the ${name} has ${plural(descendants, 'descendant')}; delete it recursively to delete them with it, or move them first`,
    );
  }
  const records = await Promise.all(subtree.map((meta) => readRecord(handle, meta.id, env.bodies)));
  const lines = await Promise.all(records.map((record) => countLineChangesOffLoop(record.body, '', false)));
  const client = ctx.client ? { client: ctx.client } : {};
  const message = artifactCommitMessage({
    verb: 'delete',
    type: top.type,
    id: top.id,
    title: top.title,
    ...client,
  });
  const parent = state.head;
  const { commit, timestamp } = await commitFiles(handle.repo, state, {
    files: subtree.map((meta) => ({ path: meta.path, content: null })),
    message,
    author: ctx.author,
    committer: env.committer,
  });
  return subtree.flatMap((meta, i) => {
    const result = recordArtifactRemoval(state, meta.id, {
      commit,
      parent,
      author: ctx.author,
      authoredAt: isoSeconds(timestamp),
      message,
      ...client,
      removed: lines[i]!.removed,
    });
    return result ? [result] : [];
  });
}
