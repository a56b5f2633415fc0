import { z } from 'zod';
import type { Actor, ArtifactRef, DeletePreview, SpecService } from '../../domain/types.js';
import { ConflictError, DeclinedError, InvalidInputError } from '../../errors.js';
import { counted } from '../text.js';
import type { AnyToolDef, Confirm } from '../types.js';
import { affectedOutput, anyArtifactIdParam, refText, undoOutput, undoText } from './schemas.js';

/** Titles named in a confirmation or a refusal; the count says how many more. */
const NAMED_TITLES = 10;

function titles(refs: readonly ArtifactRef[]): string {
  const named = refs.slice(0, NAMED_TITLES).map((ref) => `"${ref.title}"`);
  return refs.length > NAMED_TITLES ? `${named.join(', ')} and ${refs.length - NAMED_TITLES} more` : named.join(', ');
}

/**
 * A recursive delete of more than one artifact asks the user first where the client can ask
 * (elicitation). What was shown is checked again after the answer: if more went under the
 * artifact meanwhile, nothing is deleted and the call is to be made again.
 */
async function confirmed(specs: SpecService, actor: Actor, preview: DeletePreview, confirm: Confirm): Promise<void> {
  const count = preview.descendants.length + 1;
  const accepted = await confirm({
    key: `confirm_delete_${count}`,
    message: `Delete ${count} artifacts: ${titles([preview.artifact, ...preview.descendants])}? They can be restored afterwards.`,
  });
  if (!accepted) throw new DeclinedError(`the user declined to delete ${count} artifacts; nothing was deleted`);
  const now = await specs.deletePreview(actor, preview.artifact.id);
  if (now.descendants.length !== preview.descendants.length) {
    throw new ConflictError(
      `${counted(now.descendants.length + 1, 'artifact', 'artifacts')} would go now, not the ${count} confirmed; nothing was deleted, call again`,
    );
  }
}

export const deleteArtifactTool: AnyToolDef = {
  name: 'specbase_delete_artifact',
  title: 'Delete an artifact',
  kind: 'manage',
  hints: { destructive: true, idempotent: true },
  description:
    'Delete an artifact (any type but the product) as one commit; with recursive, its descendants too. ' +
    'It stays in history and specbase_restore_artifact brings it back.',
  input: z.object({
    artifactId: anyArtifactIdParam,
    recursive: z
      .boolean()
      .default(false)
      .describe('Delete its descendants too; without it, one with children is refused'),
  }),
  output: z.object({ commit: z.string(), deleted: affectedOutput, undo: undoOutput }),
  async run({ specs, actor, confirm }, args) {
    const id = String(args.artifactId);
    const recursive = args.recursive === true;
    const preview = await specs.deletePreview(actor, id);
    const below = preview.descendants.length;
    if (below > 0 && !recursive) {
      throw new InvalidInputError(
        `${refText(preview.artifact)} has ${counted(below, 'descendant', 'descendants')} (${titles(preview.descendants)}); ` +
          'call again with recursive: true to delete them with it, or move them first with specbase_move_artifact',
      );
    }
    if (below > 0 && confirm) await confirmed(specs, actor, preview, confirm);
    const done = await specs.delete(actor, id, { recursive });
    const deleted = [done.artifact, ...done.descendants];
    const undo = { tool: 'specbase_restore_artifact', arguments: { artifactId: done.artifact.id } };
    const linked = preview.linkedFrom.length
      ? `\nStill linking to it: ${preview.linkedFrom.map(refText).join('; ')}.`
      : '';
    return {
      structured: { commit: done.commit, deleted, undo },
      text:
        `Deleted ${counted(deleted.length, 'artifact', 'artifacts')} in commit ${done.commit}: ${deleted.map(refText).join('; ')}.${linked}\n` +
        undoText(undo),
      artifactId: done.artifact.id,
      commit: done.commit,
    };
  },
};
