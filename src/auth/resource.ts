/**
 * RFC 8707 resources of this server.
 *
 * Every MCP route (`/api/mcp/mcp`, `/api/mcp/sse`, `/api/mcp/o/{orgId}/mcp|sse`) is its own
 * resource URL, as RFC 9728 requires of protected resource metadata, but they form one family:
 * the MCP API of this Specbase, `${baseUrl}/api/mcp`. A token bound to any member is accepted
 * by every member, because the organization is not a token boundary: each request is still
 * checked for membership of the organization it names. A token bound to anything outside the
 * family (another server, another path) is never accepted.
 */
export const MCP_BASE_PATH = '/api/mcp';
export const DEFAULT_MCP_PATH = `${MCP_BASE_PATH}/mcp`;

/** Paths of the MCP routes whose protected resource metadata we publish. */
export const MCP_ROUTE_PATTERNS = [
  `${MCP_BASE_PATH}/mcp`,
  `${MCP_BASE_PATH}/sse`,
  `${MCP_BASE_PATH}/o/:orgId/mcp`,
  `${MCP_BASE_PATH}/o/:orgId/sse`,
  `${MCP_BASE_PATH}/readonly/mcp`,
  `${MCP_BASE_PATH}/readonly/sse`,
  `${MCP_BASE_PATH}/o/:orgId/readonly/mcp`,
  `${MCP_BASE_PATH}/o/:orgId/readonly/sse`,
  `${MCP_BASE_PATH}/manage/mcp`,
  `${MCP_BASE_PATH}/manage/sse`,
  `${MCP_BASE_PATH}/o/:orgId/manage/mcp`,
  `${MCP_BASE_PATH}/o/:orgId/manage/sse`,
];

export interface ResourceFamily {
  /** The canonical family URL when `resource` belongs to this server's MCP API, else undefined. */
  familyOf(resource: URL | string): string | undefined;
  readonly defaultResource: string;
}

export function mcpResourceFamily(baseUrl: string): ResourceFamily {
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const familyPath = `${basePath}${MCP_BASE_PATH}`;
  const family = new URL(familyPath, base.origin).href;
  return {
    defaultResource: new URL(`${basePath}${DEFAULT_MCP_PATH}`, base.origin).href,
    familyOf(resource) {
      let url: URL;
      try {
        url = new URL(String(resource));
      } catch {
        return undefined;
      }
      if (url.origin !== base.origin || url.search || url.username || url.password) return undefined;
      const path = url.pathname.replace(/\/+$/, '');
      return path === familyPath || path.startsWith(`${familyPath}/`) ? family : undefined;
    },
  };
}

/**
 * Marks a read-only grant: its tokens act read-only on every MCP connection. Added when the user
 * ticks "read-only" on the consent screen, or when the client asked for a /readonly resource.
 */
export const READ_ONLY_SCOPE = 'mcp:read-only';

/** Whether a grant of these scopes and this resource is read-only. */
export const isReadOnlyGrant = (scopes: readonly string[], resource: string): boolean =>
  scopes.includes(READ_ONLY_SCOPE) || /\/readonly\/(mcp|sse)\/?$/.test(resource);

/** Whether a client asks for the manage tools (delete, move, restore, revert) by its resource: the /manage form. */
export const asksToManage = (resource: string): boolean => /\/manage\/(mcp|sse)\/?$/.test(resource);
