import { z } from 'zod';
import { artifactType, type ArtifactTypeDef, type RequirementType } from '../artifacts/index.js';
import type { CreateInput } from '../domain/types.js';
import { idParam, readOutputFor, requirementTypeParam, titleParam } from './schemas.js';
import { createdText, withArticle } from './text.js';
import type { AnyToolDef } from './types.js';

/** How the specification says each type starts out. */
const STARTS_AS: Partial<Record<ArtifactTypeDef['type'], string>> = {
  acceptance_criterion: 'a Given-When-Then template',
  page: 'an empty document',
};

function parentParam(def: ArtifactTypeDef): { key: string; schema: z.ZodType; where: string } {
  if (def.parent === 'folder') {
    return {
      key: 'folderId',
      schema: idParam().optional(),
      where: 'in the folder folderId (from specbase_list_folders) or at root level',
    };
  }
  if (def.parent === null) throw new Error(`${def.type} cannot be created`);
  const parent = artifactType(def.parent);
  return { key: parent.idParam, schema: idParam(), where: `under ${withArticle(parent.name)}` };
}

export function createTool(def: ArtifactTypeDef): AnyToolDef {
  const parent = parentParam(def);
  const isRequirement = def.type === 'requirement';
  return {
    name: `specbase_create_${def.singular}`,
    title: `Create ${def.name}`,
    kind: 'create',
    description:
      `Create ${withArticle(def.name)} ${parent.where} from ${STARTS_AS[def.type] ?? 'the default template'}; ` +
      `returns it as read in full, ready for specbase_edit_${def.singular}.`,
    input: z.object({
      [parent.key]: parent.schema,
      ...(isRequirement ? { type: requirementTypeParam } : {}),
      title: titleParam.optional(),
    }),
    output: readOutputFor(def.type),
    async run({ specs, actor }, args) {
      const parentId = args[parent.key] as string | undefined;
      const input: CreateInput = {
        ...(parentId !== undefined ? { parentId } : {}),
        ...(typeof args.title === 'string' ? { title: args.title } : {}),
        ...(isRequirement ? { requirementType: args.type as RequirementType } : {}),
      };
      const view = await specs.create(actor, def.type, input);
      return { structured: view, text: createdText(view), artifactId: view.id, commit: view.version };
    },
  };
}
