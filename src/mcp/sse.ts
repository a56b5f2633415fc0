import type { ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { InvalidInputError, type LimitExceededError, PermissionDeniedError } from '../errors.js';
import { isUuid } from '../ids.js';
import { sendHttpError, sendJson } from './http-error.js';
import type { AuthenticatedRequest } from './org-scope.js';
import type { McpRoute } from './routes.js';
import { admitOrRefuse, newActivity, type SessionActivity, type SessionRegistry } from './sessions.js';
import { toolCallIds, type ToolCallLimit } from './tool-call-limit.js';
import type { RequestScope } from './types.js';

export interface SseDeps {
  readonly sessions: SessionRegistry<SSEServerTransport>;
  openServer(scope: RequestScope, activity: SessionActivity): Server;
  /** Where the client posts its messages, e.g. `/api/mcp/messages` (the transport adds `?sessionId=`). */
  messagesPath(scope: RequestScope, orgInPath: boolean): string;
  readonly toolCalls: ToolCallLimit;
  onRefused(scope: RequestScope, error: LimitExceededError): void;
  /** Keeps the organization open while the stream lasts (see McpRouterDeps.holdOrganization). */
  hold(orgId: string): () => void;
}

/** Response header of `GET /sse` naming the session, as Streamable HTTP does. */
export const SSE_SESSION_HEADER = 'Mcp-Session-Id';

/** GET: the legacy SSE stream; the session lives as long as the stream (or until idle expiry). */
export async function sseOpen(deps: SseDeps, scope: RequestScope, route: McpRoute, res: ServerResponse): Promise<void> {
  const release = admitOrRefuse(deps.sessions, scope.user.userId, res);
  if (!release) return;
  const transport = new SSEServerTransport(deps.messagesPath(scope, route.orgIdInPath !== undefined), res);
  // The id is otherwise only inside the stream's first event; a load balancer learns it from
  // this header and sends the matching `POST …/messages?sessionId=` to this replica.
  res.setHeader(SSE_SESSION_HEADER, transport.sessionId);
  const activity = newActivity();
  const server = deps.openServer(scope, activity);
  deps.sessions.add({
    id: transport.sessionId,
    userId: scope.user.userId,
    orgId: scope.orgId,
    transport,
    close: () => server.close(),
    activity,
  });
  release();
  const closeServer = server.onclose;
  const unhold = deps.hold(scope.orgId);
  server.onclose = () => {
    closeServer?.();
    unhold();
    deps.sessions.remove(transport.sessionId);
  };
  await server.connect(transport);
}

/**
 * POST: one client message for an open SSE session of the same user and organization. Its
 * answer travels on the stream, not in this response, so a tool call over the rate limit is
 * answered there too: a tool error result that says when to retry.
 */
export async function ssePost(
  deps: SseDeps,
  scope: RequestScope,
  route: McpRoute,
  req: AuthenticatedRequest,
  body: unknown,
  res: ServerResponse,
): Promise<void> {
  const id = route.query.get('sessionId');
  if (id === null) {
    sendHttpError(res, new InvalidInputError('missing sessionId query parameter'));
    return;
  }
  try {
    const session = deps.sessions.claim(id, scope);
    if (!session) {
      sendJson(res, 404, {
        error: 'session_not_found',
        message: 'no open SSE session with this id; reconnect to the SSE endpoint',
      });
      return;
    }
    const ids = toolCallIds(body);
    const refusal = ids.length > 0 ? deps.toolCalls.take(scope, ids.length) : undefined;
    if (refusal) {
      deps.onRefused(scope, refusal);
      res.writeHead(202).end('Accepted');
      for (const id of ids) {
        await session.transport.send({
          jsonrpc: '2.0',
          id,
          result: { isError: true, content: [{ type: 'text', text: refusal.message }] },
        });
      }
      return;
    }
    await session.transport.handlePostMessage(req, res, body);
  } catch (error) {
    if (!(error instanceof PermissionDeniedError)) throw error;
    sendHttpError(res, error);
  }
}

/**
 * POST on the SSE URL: clients that try Streamable HTTP first (mcp-remote) learn in one short
 * JSON answer where that transport lives, instead of reading an HTML "not found" page.
 */
export function ssePostRefused(baseUrl: string, route: McpRoute, res: ServerResponse): void {
  const orgId = route.orgIdInPath;
  const streamableUrl = `${baseUrl}/api/mcp${orgId !== undefined && isUuid(orgId) ? `/o/${orgId.toLowerCase()}` : ''}/mcp`;
  sendJson(
    res,
    405,
    {
      error: 'method_not_allowed',
      message: `this is the legacy SSE endpoint (GET only); Streamable HTTP is at ${streamableUrl}`,
      streamableHttpUrl: streamableUrl,
    },
    { Allow: 'GET' },
  );
}
