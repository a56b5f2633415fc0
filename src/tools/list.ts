import { z } from 'zod';
import { artifactType, type ArtifactTypeDef } from '../artifacts/index.js';
import { artifactIdParam, folderIdParam, foldersOutput, listOutput } from './schemas.js';
import { foldersText, listText, withArticle } from './text.js';
import type { AnyToolDef } from './types.js';

/** `specbase_list_<plural>` by the parent artifact's id parameter. */
export function listTool(def: ArtifactTypeDef): AnyToolDef {
  if (def.parent === null || def.parent === 'folder') throw new Error(`${def.type} is not listed by parent artifact`);
  const parent = artifactType(def.parent);
  const where = parent.parent === null ? `the ${parent.name}` : withArticle(parent.name);
  return {
    name: `specbase_list_${def.plural}`,
    title: `List ${def.pluralName}`,
    kind: 'list',
    description: `List the ${def.pluralName} under ${where}.`,
    input: z.object({ [parent.idParam]: artifactIdParam(parent) }),
    output: listOutput,
    async run({ specs, actor }, args) {
      const parentId = String(args[parent.idParam]);
      const items = await specs.listChildren(actor, def.type, parentId);
      return {
        structured: { items },
        text: listText(items, def.name.toLowerCase(), def.pluralName.toLowerCase()),
        artifactId: parentId,
      };
    },
  };
}

export function listPagesTool(def: ArtifactTypeDef): AnyToolDef {
  return {
    name: `specbase_list_${def.plural}`,
    title: `List ${def.pluralName}`,
    kind: 'list',
    description: `List the ${def.pluralName} you can access: all, or those directly in folderId.`,
    input: z.object({ folderId: folderIdParam().optional() }),
    output: listOutput,
    async run({ specs, actor }, args) {
      const folderId = args.folderId as string | undefined;
      const items = await specs.listPages(actor, folderId);
      return {
        structured: { items },
        text: listText(items, def.name.toLowerCase(), def.pluralName.toLowerCase()),
        ...(folderId ? { artifactId: folderId } : {}),
      };
    },
  };
}

export const listFoldersTool: AnyToolDef = {
  name: 'specbase_list_folders',
  title: 'List page folders',
  kind: 'list',
  description: "List the folders of pages: all, or the subfolders of parentFolderId; ids are the page tools' folderId.",
  input: z.object({ parentFolderId: folderIdParam().optional() }),
  output: foldersOutput,
  async run({ specs, actor }, args) {
    const parentFolderId = args.parentFolderId as string | undefined;
    const folders = await specs.listFolders(actor, parentFolderId);
    return {
      structured: { folders },
      text: foldersText(folders),
      ...(parentFolderId ? { artifactId: parentFolderId } : {}),
    };
  },
};
