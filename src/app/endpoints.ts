/** The public MCP addresses, as printed by the CLI and the start-up banner. */
export const mcpEndpoints = (baseUrl: string) => ({
  mcpUrl: `${baseUrl}/api/mcp/mcp`,
  sseUrl: `${baseUrl}/api/mcp/sse`,
});

export const gitCloneUrl = (baseUrl: string, orgId: string): string => `${baseUrl}/git/${orgId}.git`;
