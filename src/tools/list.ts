import { z } from 'zod';
import { artifactType, type ArtifactTypeDef } from '../artifacts/index.js';
import { foldersOutput, idParam, listOutput } from './schemas.js';
import { foldersText, listText, withArticle } from './text.js';
import type { AnyToolDef } from './types.js';

/** `specbase_list_<plural>` by the parent artifact's id parameter. */
export function listTool(def: ArtifactTypeDef): AnyToolDef {
  if (def.parent === null || def.parent === 'folder') throw new Error(`${def.type} is not listed by parent artifact`);
  const parent = artifactType(def.parent);
  const where = parent.parent === null ? `the ${parent.name} (productId from specbase_read_product)` : withArticle(parent.name);
  return {
    name: `specbase_list_${def.plural}`,
    title: `List ${def.pluralName}`,
    kind: 'list',
    description: `List the ${def.pluralName} under ${where}, in creation order.`,
    input: z.object({ [parent.idParam]: idParam() }),
    output: listOutput,
    async run({ specs, actor }, args) {
      const parentId = String(args[parent.idParam]);
      const items = await specs.listChildren(actor, def.type, parentId);
      return { structured: { items }, text: listText(items, def.pluralName.toLowerCase()), artifactId: parentId };
    },
  };
}

export function listPagesTool(def: ArtifactTypeDef): AnyToolDef {
  return {
    name: `specbase_list_${def.plural}`,
    title: `List ${def.pluralName}`,
    kind: 'list',
    description:
      `List the ${def.pluralName} you can access: all, or with folderId (from specbase_list_folders) those directly in that folder.`,
    input: z.object({ folderId: idParam().optional() }),
    output: listOutput,
    async run({ specs, actor }, args) {
      const folderId = args.folderId as string | undefined;
      const items = await specs.listPages(actor, folderId);
      return { structured: { items }, text: listText(items, 'pages'), ...(folderId ? { artifactId: folderId } : {}) };
    },
  };
}

export const listFoldersTool: AnyToolDef = {
  name: 'specbase_list_folders',
  title: 'List page folders',
  kind: 'list',
  description:
    'List the folders that organize pages (id, name, parentFolderId, pageCount): all, or with parentFolderId its direct subfolders. ' +
    'A folder id is the folderId of the page tools.',
  input: z.object({ parentFolderId: idParam().optional() }),
  output: foldersOutput,
  async run({ specs, actor }, args) {
    const parentFolderId = args.parentFolderId as string | undefined;
    const folders = await specs.listFolders(actor, parentFolderId);
    return { structured: { folders }, text: foldersText(folders), ...(parentFolderId ? { artifactId: parentFolderId } : {}) };
  },
};
