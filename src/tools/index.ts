export { buildCatalog, toolDefinition, TOOLS_LIST_BUDGET_BYTES, type ToolCatalog } from './catalog.js';
export { FULL_CONNECTION, narrowest, parseToolSelection, type Connection, type ReadOnlyReason } from './connection.js';
export { errorSentence, type ToolLog } from './error-result.js';
export {
  buildHandlers,
  type McpHandler,
  type RequestContext,
  type ToolScope,
  type ToolServerDeps,
} from './handlers.js';
export { createModernToolServer } from './modern-server.js';
export {
  ARTIFACT_TEMPLATE,
  artifactTemplate,
  artifactUri,
  parseArtifactUri,
  RESOURCE_MIME_TYPE,
} from './resource-uri.js';
export { SERVER_INFO } from './server-info.js';
export { createToolServer, type ToolSessionScope } from './server.js';
export { TOOLS } from './table.js';
export { MANAGE_TOOLS } from './manage/index.js';
export { APP_TOOLS } from './apps/tools.js';
export { APP_MIME_TYPE, APP_URIS, type AppName } from './apps/uris.js';
export {
  isReadOnly,
  type AnyToolDef,
  type AppRendering,
  type ToolContext,
  type ToolDef,
  type ToolKind,
} from './types.js';
