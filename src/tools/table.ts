import { ARTIFACT_TYPE_TABLE, type ArtifactTypeDef } from '../artifacts/index.js';
import { createTool } from './create.js';
import { editTool } from './edit.js';
import { listFoldersTool, listPagesTool, listTool } from './list.js';
import { readTool } from './read.js';
import { searchTool } from './search.js';
import type { AnyToolDef } from './types.js';

function toolsForType(def: ArtifactTypeDef): AnyToolDef[] {
  const list = def.parent === null ? undefined : def.parent === 'folder' ? listPagesTool(def) : listTool(def);
  return [
    readTool(def),
    ...(list ? [list] : []),
    ...(def.creatable ? [createTool(def)] : []),
    ...(def.editable ? [editTool(def)] : []),
  ];
}

/** Every tool of the MCP surface, generated from the artifact-type table. */
export const TOOLS: readonly AnyToolDef[] = Object.freeze([
  searchTool as unknown as AnyToolDef,
  ...ARTIFACT_TYPE_TABLE.flatMap(toolsForType),
  listFoldersTool,
]);
