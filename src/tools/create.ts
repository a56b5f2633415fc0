import { z } from 'zod';
import { artifactType, type ArtifactTypeDef, type RequirementType } from '../artifacts/index.js';
import type { CreateInput } from '../domain/types.js';
import {
  artifactIdParam,
  contentParam,
  folderIdParam,
  readOutputFor,
  requirementTypeParam,
  titleParam,
} from './schemas.js';
import { createdText, HOW_TO_LINK, withArticle } from './text.js';
import type { AnyToolDef } from './types.js';

/** Where the new artifact goes, and the sentence that says so. */
function parentParam(def: ArtifactTypeDef): { key: string; schema: z.ZodType; where: string } {
  if (def.parent === 'folder') {
    return { key: 'folderId', schema: folderIdParam().optional(), where: 'at root level or in folderId' };
  }
  if (def.parent === null) throw new Error(`${def.type} cannot be created`);
  const parent = artifactType(def.parent);
  return { key: parent.idParam, schema: artifactIdParam(parent), where: `under ${parent.idParam}` };
}

/** What the new document holds before the first edit. */
function startsAs(def: ArtifactTypeDef): string {
  if (def.type === 'page') return 'empty, or with title as its heading';
  return `headed by title, from ${def.type === 'acceptance_criterion' ? 'a Given-When-Then' : 'its'} template`;
}

export function createTool(def: ArtifactTypeDef): AnyToolDef {
  const parent = parentParam(def);
  const isRequirement = def.type === 'requirement';
  return {
    name: `specbase_create_${def.singular}`,
    title: `Create ${def.name}`,
    kind: 'create',
    description:
      `Create ${withArticle(def.name)} ${parent.where}, ${startsAs(def)}; ` + `returns it in full. ${HOW_TO_LINK}`,
    input: z.object({
      [parent.key]: parent.schema,
      ...(isRequirement ? { type: requirementTypeParam } : {}),
      title: titleParam.optional(),
      content: contentParam.optional(),
    }),
    output: readOutputFor(def.type),
    app: 'artifact',
    async run({ specs, actor }, args) {
      const parentId = args[parent.key] as string | undefined;
      const input: CreateInput = {
        ...(parentId !== undefined ? { parentId } : {}),
        ...(typeof args.title === 'string' ? { title: args.title } : {}),
        ...(typeof args.content === 'string' ? { content: args.content } : {}),
        ...(isRequirement ? { requirementType: args.type as RequirementType } : {}),
      };
      const view = await specs.create(actor, def.type, input);
      const links = (view.links ?? []).filter((link) => !link.deleted);
      return { structured: view, text: createdText(view), artifactId: view.id, commit: view.version, links };
    },
  };
}
