/** The public MCP addresses, as printed by the CLI and the start-up banner. */
export const mcpEndpoints = (baseUrl: string) => ({
  mcpUrl: `${baseUrl}/api/mcp/mcp`,
  sseUrl: `${baseUrl}/api/mcp/sse`,
  readOnlyUrl: `${baseUrl}/api/mcp/readonly/mcp`,
});

/** The forms for clients that cannot send headers: the organization (and read-only) in the path. */
export const orgPathUrls = (baseUrl: string, orgId: string) => ({
  mcpUrl: `${baseUrl}/api/mcp/o/${orgId}/mcp`,
  readOnlyUrl: `${baseUrl}/api/mcp/o/${orgId}/readonly/mcp`,
});

export const gitCloneUrl = (baseUrl: string, orgId: string): string => `${baseUrl}/git/${orgId}.git`;
