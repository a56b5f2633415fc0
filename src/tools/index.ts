export { buildCatalog, toolDefinition, type ToolCatalog } from './catalog.js';
export { FULL_CONNECTION, narrowest, parseToolSelection, type Connection, type ReadOnlyReason } from './connection.js';
export { errorSentence, type ToolLog } from './error-result.js';
export { buildHandlers, type McpHandler, type RequestContext, type ToolScope, type ToolServerDeps } from './handlers.js';
export { createModernToolServer } from './modern-server.js';
export { SERVER_INFO } from './server-info.js';
export { createToolServer, type ToolSessionScope } from './server.js';
export { TOOLS } from './table.js';
export { isReadOnly, type AnyToolDef, type ToolContext, type ToolDef, type ToolKind } from './types.js';
