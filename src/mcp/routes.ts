/** The MCP endpoints: Streamable HTTP, the legacy SSE stream, and the legacy SSE stream's messages. */
export type McpRouteKind = 'mcp' | 'sse' | 'messages';

export interface McpRoute {
  readonly kind: McpRouteKind;
  /** The request path without its query. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** `/api/mcp/o/{orgId}/…`: the organization named in the path, as sent (decoded). */
  readonly orgIdInPath?: string;
  /** `/api/mcp[/o/{orgId}]/readonly/…`: the read-only form, for clients that cannot send headers. */
  readonly readOnly: boolean;
  /** `/api/mcp[/o/{orgId}]/manage/…`: the manage tools as well (X-Specbase-Tools: +manage), likewise. */
  readonly manage: boolean;
}

// Case-insensitive, with an optional trailing slash, as the express routes these replace matched.
const MCP_PATH = /^\/api\/mcp(?:\/o\/([^/]+))?(\/readonly|\/manage)?\/(mcp|sse|messages)\/?$/i;

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The MCP endpoint a request URL names, or undefined for every other URL. */
export function matchMcpRoute(url: string): McpRoute | undefined {
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const match = MCP_PATH.exec(path);
  if (!match) return undefined;
  return {
    kind: match[3]!.toLowerCase() as McpRouteKind,
    readOnly: match[2]?.toLowerCase() === '/readonly',
    manage: match[2]?.toLowerCase() === '/manage',
    path,
    query: new URLSearchParams(queryAt < 0 ? '' : url.slice(queryAt + 1)),
    ...(match[1] !== undefined ? { orgIdInPath: decoded(match[1]) } : {}),
  };
}
