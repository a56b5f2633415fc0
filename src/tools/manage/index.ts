import type { AnyToolDef } from '../types.js';
import { deleteArtifactTool } from './delete.js';
import { readHistoryTool } from './history.js';
import { moveArtifactTool } from './move.js';
import { restoreArtifactTool } from './restore.js';
import { revertChangeTool } from './revert.js';

/**
 * The `manage` kind: what the web application and the CLI do to an artifact's life, offered only
 * to connections that ask for it (tools/connection.ts).
 */
export const MANAGE_TOOLS: readonly AnyToolDef[] = Object.freeze([
  deleteArtifactTool,
  restoreArtifactTool,
  moveArtifactTool,
  revertChangeTool,
  readHistoryTool,
]);
