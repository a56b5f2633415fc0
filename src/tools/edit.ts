import { z } from 'zod';
import type { ArtifactTypeDef } from '../artifacts/index.js';
import { artifactIdParam, baseVersionParam, editOutput, patchParam } from './schemas.js';
import { editText, HOW_TO_LINK, withArticle } from './text.js';
import type { AnyToolDef } from './types.js';

export function editTool(def: ArtifactTypeDef): AnyToolDef {
  return {
    name: `specbase_edit_${def.singular}`,
    title: `Edit ${def.name}`,
    kind: 'edit',
    description:
      `Edit ${withArticle(def.name)} by a unified diff of its full text (mode "full"), e.g.\n` +
      '@@\n # Checkout\n-TBD\n+Pay by card.\n' +
      `All hunks apply or none. ${HOW_TO_LINK}`,
    input: z.object({
      [def.idParam]: artifactIdParam(def),
      patch: patchParam,
      baseVersion: baseVersionParam.optional(),
    }),
    output: editOutput,
    app: 'change',
    async run({ specs, actor }, args) {
      const id = String(args[def.idParam]);
      const view = await specs.edit(actor, def.type, id, {
        patch: String(args.patch),
        ...(typeof args.baseVersion === 'string' ? { baseVersion: args.baseVersion } : {}),
      });
      const links = (view.links ?? []).filter((link) => !link.deleted);
      return { structured: view, text: editText(view), artifactId: id, commit: view.version, links };
    },
  };
}
