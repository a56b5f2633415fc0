import { ConflictError, InvalidInputError } from '../errors.js';
import { threeWayMerge } from '../patch/index.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { EditView } from './types.js';
import { editView, writeComputedBody } from './edit.js';
import { bodyBefore, bodyOf, historyEntryOf } from './history.js';

/**
 * Undo one change as `git revert` does: a three-way merge that carries "after -> before" of
 * that change over to the current text. Later edits elsewhere survive; a later edit to the same
 * lines is a conflict, and nothing is written.
 */
export async function revertChange(deps: DomainDeps, scope: Scope, id: string, commit: string): Promise<EditView> {
  const meta = await scope.writable(id);
  const entry = await historyEntryOf(deps, scope, meta, commit);
  if (entry.verb === 'create' || !entry.parent) {
    throw new InvalidInputError(
      'the change that created an artifact cannot be reverted; restore a later version instead',
    );
  }
  const [before, after] = await Promise.all([bodyBefore(deps, scope, entry), bodyOf(deps, scope, meta, entry.commit)]);
  const { before: current, result } = await writeComputedBody(
    deps,
    scope,
    meta.id,
    (record) => {
      try {
        return threeWayMerge({ ours: record.body, base: after, theirs: before });
      } catch (error) {
        if (error instanceof ConflictError) {
          throw new ConflictError(
            `cannot revert ${entry.commit.slice(0, 7)}: ${error.message}; nothing was written`,
            error.data,
          );
        }
        throw error;
      }
    },
    { verb: 'revert', sourceCommit: entry.commit },
  );
  return editView(deps, scope.orgId, current, result);
}

export async function restoreVersion(deps: DomainDeps, scope: Scope, id: string, commit: string): Promise<EditView> {
  const meta = await scope.writable(id);
  const target = await bodyOf(deps, scope, meta, commit);
  const { before, result } = await writeComputedBody(deps, scope, meta.id, () => target, {
    verb: 'restore',
    sourceCommit: commit,
  });
  return editView(deps, scope.orgId, before, result);
}
