import { z } from 'zod';
import { counted } from '../text.js';
import type { AnyToolDef } from '../types.js';
import { affectedOutput, anyArtifactIdParam, refText, undoOutput, undoText } from './schemas.js';

export const moveArtifactTool: AnyToolDef = {
  name: 'specbase_move_artifact',
  title: 'Move an artifact',
  kind: 'manage',
  hints: { destructive: true, idempotent: true },
  description:
    'Give an artifact another parent of the type it belongs under (a page: a folder, or null for the root), ' +
    'as one commit; its descendants go with it.',
  input: z.object({
    artifactId: anyArtifactIdParam,
    to: z
      .string()
      .nullable()
      .describe('New parent artifact id, or for a page a folder id (specbase_list_folders) or null for the root'),
  }),
  output: z.object({
    commit: z.string(),
    moved: affectedOutput,
    parentId: z.string().nullable(),
    previousParentId: z.string().nullable(),
    undo: undoOutput,
  }),
  async run({ specs, actor }, args) {
    const id = String(args.artifactId);
    const before = await specs.readAny(actor, id, 'concise');
    const done = await specs.move(actor, id, (args.to as string | null) ?? null);
    const moved = [done.artifact, ...done.descendants];
    const undo = { tool: 'specbase_move_artifact', arguments: { artifactId: done.artifact.id, to: before.parentId } };
    return {
      structured: { commit: done.commit, moved, parentId: done.parentId, previousParentId: before.parentId, undo },
      text:
        `Moved ${counted(moved.length, 'artifact', 'artifacts')} in commit ${done.commit} from ${before.parentId ?? 'the root'} to ${done.parentId ?? 'the root'}: ${moved.map(refText).join('; ')}.\n` +
        undoText(undo),
      artifactId: done.artifact.id,
      commit: done.commit,
    };
  },
};
