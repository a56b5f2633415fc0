export { allowedOrigins } from './origin.js';
export { patVerifier } from './pat-verifier.js';
export { createMcpRouter, type McpEndpoints } from './router.js';
export type { AuthenticatedUser, McpRouterDeps, McpTuning, VerifyAccessToken } from './types.js';
