import { z } from 'zod';
import type { ArtifactTypeDef } from '../artifacts/index.js';
import { baseVersionParam, editOutput, idParam, patchParam } from './schemas.js';
import { editText, withArticle } from './text.js';
import type { AnyToolDef } from './types.js';

export function editTool(def: ArtifactTypeDef): AnyToolDef {
  return {
    name: `specbase_edit_${def.singular}`,
    title: `Edit ${def.name}`,
    kind: 'edit',
    description:
      `Edit ${withArticle(def.name)} with a unified diff of its markdown exactly as specbase_read_${def.singular} returns it with mode "full". ` +
      'Hunks: "@@", then " " context (1-3 lines), "-" removed and "+" added lines; headers and line numbers optional:\n' +
      '@@\n # Checkout\n-TBD\n+Pay by card.\n' +
      'All hunks apply or none; an error shows the nearest current lines: fix the hunk and retry.',
    input: z.object({ [def.idParam]: idParam(), patch: patchParam, baseVersion: baseVersionParam.optional() }),
    output: editOutput,
    async run({ specs, actor }, args) {
      const id = String(args[def.idParam]);
      const view = await specs.edit(actor, def.type, id, {
        patch: String(args.patch),
        ...(typeof args.baseVersion === 'string' ? { baseVersion: args.baseVersion } : {}),
      });
      return { structured: view, text: editText(view), artifactId: id, commit: view.version };
    },
  };
}
