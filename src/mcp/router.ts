import type { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express, { type ErrorRequestHandler } from 'express';
import type { Principal } from '../access/principal.js';
import { LimitExceededError, NotOrganizationMemberError, PayloadTooLargeError } from '../errors.js';
import { buildCatalog, createToolServer, type ToolLog, type ToolServerDeps } from '../tools/index.js';
import { authenticate } from './authenticate.js';
import { sendHttpError } from './http-error.js';
import { resolveOrganization } from './org-scope.js';
import { InFlight } from './in-flight.js';
import { checkOrigin } from './origin.js';
import { busyWhile, SessionRegistry, type SessionActivity } from './sessions.js';
import { ssePost, ssePostRefused, sseOpen } from './sse.js';
import { holdSession, streamablePost, streamableSessionRequest } from './streamable.js';
import { limitStreamableToolCalls, ToolCallLimit } from './tool-call-limit.js';
import type { McpRouterDeps, RequestScope } from './types.js';

const DEFAULT_IDLE_MS = 30 * 60_000;
/** Under the idle timeouts of common proxies (30-60 s), so that a long call never looks dead. */
const DEFAULT_POLL_AFTER_MS = 25_000;
/** Room for the largest document plus JSON-RPC framing and escaping. */
const BODY_OVERHEAD_BYTES = 64 * 1024;

export interface McpEndpoints {
  readonly router: express.Router;
  /**
   * For shutdown: lets tool calls under way finish (up to `limitMs`), then closes every
   * session, so that open event streams no longer hold the server.
   */
  drain(limitMs: number): Promise<void>;
}

/**
 * The MCP endpoints: Streamable HTTP and legacy SSE, with the organization in a header or in
 * the path. Origin, bearer token and organization membership are checked before MCP is spoken.
 */
export function createMcpRouter(deps: McpRouterDeps): McpEndpoints {
  const { config, control, specs } = deps;
  const toolLog: ToolLog = (level, message, data) => deps.log?.[level](data ?? {}, message);
  const inFlight = new InFlight();
  const toolDeps: ToolServerDeps = {
    catalog: buildCatalog(deps.tools),
    pollAfterMs: deps.pollAfterMs ?? DEFAULT_POLL_AFTER_MS,
    specs,
    audit: control.audit,
    log: toolLog,
    track: (work) => inFlight.track(work),
  };
  const idleMs = deps.sessionIdleMs ?? DEFAULT_IDLE_MS;
  const onCloseError = (error: unknown) => toolLog('warn', 'closing an MCP session failed', { error: String(error) });

  const openServer = (scope: RequestScope, activity: SessionActivity) =>
    createToolServer({ ...toolDeps, track: (work) => inFlight.track(() => busyWhile(activity, work)) }, {
      userId: scope.user.userId,
      orgId: scope.orgId,
      async principal(authInfo) {
        const resolved = authInfo?.extra?.principal as Principal | undefined;
        const principal = resolved ?? (await control.members.principal(scope.orgId, scope.user.userId));
        if (!principal) throw new NotOrganizationMemberError();
        return principal;
      },
    });
  const basePath = new URL(config.baseUrl).pathname.replace(/\/+$/, '');
  const limits = config.userLimits;
  const toolCalls = new ToolCallLimit(limits.toolCallsPerMinute);
  const onRefused = (scope: RequestScope, error: LimitExceededError) =>
    toolLog('warn', 'tool call rate limit reached', { userId: scope.user.userId, orgId: scope.orgId, retryAfterSeconds: error.retryAfterSeconds });
  const streamable = {
    sessions: new SessionRegistry<StreamableHTTPServerTransport>(idleMs, onCloseError, {
      maxPerUser: limits.maxSessionsPerUser,
      what: 'MCP sessions',
      howToFree: 'end a session you no longer use (DELETE /api/mcp/mcp with its Mcp-Session-Id header)',
    }),
    openServer,
  };
  const sse = {
    sessions: new SessionRegistry<SSEServerTransport>(idleMs, onCloseError, {
      maxPerUser: limits.maxSseStreamsPerUser,
      what: 'SSE streams',
      howToFree: 'close an SSE stream you no longer use',
    }),
    openServer,
    toolCalls,
    onRefused,
    messagesPath: (scope: RequestScope, orgInPath: boolean) =>
      `${basePath}/api/mcp${orgInPath ? `/o/${scope.orgId}` : ''}/messages`,
  };

  // A POST accepted before shutdown is answered before its session closes, even if its body is
  // still arriving and its tool call has not started yet.
  const tracked: express.RequestHandler = (_req, res, next) => {
    void inFlight.track(() => new Promise<void>((resolve) => res.once('close', resolve)));
    next();
  };
  const guard = [checkOrigin(config), authenticate(config, deps.verifyAccessToken), resolveOrganization(control)];
  const json = express.json({ limit: config.limits.maxDocumentBytes + BODY_OVERHEAD_BYTES });
  const router = express.Router();
  for (const base of ['/api/mcp', '/api/mcp/o/:orgId']) {
    router.post(`${base}/mcp`, tracked, ...guard, holdSession(streamable), json, limitStreamableToolCalls(toolCalls, onRefused), streamablePost(streamable));
    router.get(`${base}/mcp`, ...guard, streamableSessionRequest(streamable));
    router.delete(`${base}/mcp`, ...guard, streamableSessionRequest(streamable));
    router.get(`${base}/sse`, ...guard, sseOpen(sse));
    router.post(`${base}/sse`, checkOrigin(config), ssePostRefused(config.baseUrl));
    router.post(`${base}/messages`, tracked, ...guard, json, ssePost(sse));
  }

  const onError: ErrorRequestHandler = (error, req, res, next) => {
    if (res.headersSent) return next(error);
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') {
      const { limit, length } = error as { limit: number; length: number };
      return sendHttpError(res, new PayloadTooLargeError('the request body', limit, length));
    }
    if (type === 'entity.parse.failed') {
      res.status(400).json({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not JSON' }, id: null });
      return;
    }
    deps.log?.error({ err: error, method: req.method, path: req.path }, 'MCP request failed');
    res.status(500).json({ error: 'internal_error', message: 'internal server error' });
  };
  router.use('/api/mcp', onError);
  return {
    router,
    async drain(limitMs) {
      await inFlight.settled(limitMs);
      await Promise.all([streamable.sessions.closeAll(), sse.sessions.closeAll()]);
    },
  };
}
