import { z } from 'zod';
import { editOutput } from '../schemas.js';
import { editText } from '../text.js';
import type { AnyToolDef } from '../types.js';
import { anyArtifactIdParam, undoOutput, undoText } from './schemas.js';

export const revertChangeTool: AnyToolDef = {
  name: 'specbase_revert_change',
  title: 'Revert a change',
  kind: 'manage',
  hints: { destructive: true },
  description:
    "Undo one change to an artifact's document as a new commit, as git revert does: later edits elsewhere stay; " +
    'a later edit to the same lines is a conflict and nothing is written.',
  input: z.object({
    artifactId: anyArtifactIdParam,
    commit: z.string().describe('The change to undo: its commit, or a version (specbase_read_history)'),
  }),
  output: editOutput.extend({ undo: undoOutput }),
  async run({ specs, actor }, args) {
    const id = String(args.artifactId);
    const view = await specs.revert(actor, id, String(args.commit));
    const undo = { tool: 'specbase_revert_change', arguments: { artifactId: view.id, commit: view.version } };
    return {
      structured: { ...view, undo },
      text: `Reverted ${String(args.commit).slice(0, 12)}. ${editText(view)}\n${undoText(undo)}`,
      artifactId: view.id,
      commit: view.version,
    };
  },
};
