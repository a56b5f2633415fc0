import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { RequestHandler } from 'express';
import { InvalidInputError, LimitExceededError, PermissionDeniedError } from '../errors.js';
import { isUuid } from '../ids.js';
import { sendHttpError } from './http-error.js';
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
}

/** Response header of `GET /sse` naming the session, as Streamable HTTP does. */
export const SSE_SESSION_HEADER = 'Mcp-Session-Id';

/** GET: the legacy SSE stream; the session lives as long as the stream (or until idle expiry). */
export const sseOpen = (deps: SseDeps): RequestHandler => async (req, res) => {
  const scope = res.locals.scope as RequestScope;
  const release = admitOrRefuse(deps.sessions, scope.user.userId, res);
  if (!release) return;
  const transport = new SSEServerTransport(deps.messagesPath(scope, req.params.orgId !== undefined), res);
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
  server.onclose = () => deps.sessions.remove(transport.sessionId);
  await server.connect(transport);
};

/**
 * POST: one client message for an open SSE session of the same user and organization. Its
 * answer travels on the stream, not in this response, so a tool call over the rate limit is
 * answered there too: a tool error result that says when to retry.
 */
export const ssePost = (deps: SseDeps): RequestHandler => async (req, res) => {
  const id = req.query.sessionId;
  if (typeof id !== 'string') {
    sendHttpError(res, new InvalidInputError('missing sessionId query parameter'));
    return;
  }
  try {
    const session = deps.sessions.claim(id, res.locals.scope as RequestScope);
    if (!session) {
      res.status(404).json({ error: 'session_not_found', message: 'no open SSE session with this id; reconnect to the SSE endpoint' });
      return;
    }
    const ids = toolCallIds(req.body);
    const refusal = ids.length > 0 ? deps.toolCalls.take(res.locals.scope as RequestScope, ids.length) : undefined;
    if (refusal) {
      deps.onRefused(res.locals.scope as RequestScope, refusal);
      res.status(202).end('Accepted');
      for (const id of ids) {
        await session.transport.send({ jsonrpc: '2.0', id, result: { isError: true, content: [{ type: 'text', text: refusal.message }] } });
      }
      return;
    }
    await session.transport.handlePostMessage(req, res, req.body);
  } catch (error) {
    if (!(error instanceof PermissionDeniedError)) throw error;
    sendHttpError(res, error);
  }
};

/**
 * POST on the SSE URL: clients that try Streamable HTTP first (mcp-remote) learn in one short
 * JSON answer where that transport lives, instead of reading an HTML "not found" page.
 */
export const ssePostRefused = (baseUrl: string): RequestHandler => (req, res) => {
  const orgId = req.params.orgId;
  const streamableUrl = `${baseUrl}/api/mcp${typeof orgId === 'string' && isUuid(orgId) ? `/o/${orgId.toLowerCase()}` : ''}/mcp`;
  res
    .status(405)
    .set('Allow', 'GET')
    .json({
      error: 'method_not_allowed',
      message: `this is the legacy SSE endpoint (GET only); Streamable HTTP is at ${streamableUrl}`,
      streamableHttpUrl: streamableUrl,
    });
};
