import type { AnyToolDef } from '../types.js';
import { listChangeRequestsTool } from './list.js';
import { openChangeRequestTool } from './open.js';
import { readChangeRequestTool } from './read.js';
import { submitChangeRequestTool } from './submit.js';

/**
 * The `review` kind: change requests as an assistant drafts them. Offered to connections that
 * ask (X-Specbase-Tools: +review) and to every connection working on a change request; merging
 * is a person's, in the web application or an MCP App.
 */
export const REVIEW_TOOLS: readonly AnyToolDef[] = Object.freeze([
  openChangeRequestTool,
  listChangeRequestsTool,
  readChangeRequestTool,
  submitChangeRequestTool,
]);
