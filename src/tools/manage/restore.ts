import { z } from 'zod';
import { counted } from '../text.js';
import type { AnyToolDef } from '../types.js';
import { affectedOutput, anyArtifactIdParam, refText, undoOutput, undoText } from './schemas.js';

export const restoreArtifactTool: AnyToolDef = {
  name: 'specbase_restore_artifact',
  title: 'Restore a deleted artifact',
  kind: 'manage',
  hints: { idempotent: true },
  description: 'Bring back a deleted artifact with its id, content and the descendants deleted with it, as one commit.',
  input: z.object({ artifactId: anyArtifactIdParam }),
  output: z.object({ commit: z.string(), restored: affectedOutput, url: z.string(), undo: undoOutput }),
  async run({ specs, actor }, args) {
    const done = await specs.restoreDeleted(actor, String(args.artifactId));
    const restored = [done.artifact, ...done.descendants];
    const undo = {
      tool: 'specbase_delete_artifact',
      arguments: { artifactId: done.artifact.id, recursive: restored.length > 1 },
    };
    return {
      structured: { commit: done.commit, restored, url: done.url, undo },
      text:
        `Restored ${counted(restored.length, 'artifact', 'artifacts')} in commit ${done.commit}: ${restored.map(refText).join('; ')}, ${done.url}\n` +
        undoText(undo),
      artifactId: done.artifact.id,
      commit: done.commit,
      links: [done.artifact],
    };
  },
};
