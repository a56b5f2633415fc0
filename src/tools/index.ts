export { buildCatalog, toolDefinition, type ToolCatalog } from './catalog.js';
export { errorSentence, type ToolLog } from './error-result.js';
export { createToolServer, SERVER_INFO, type ToolServerDeps, type ToolSessionScope } from './server.js';
export { TOOLS } from './table.js';
export { isReadOnly, type AnyToolDef, type ToolContext, type ToolDef, type ToolKind } from './types.js';
