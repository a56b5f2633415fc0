import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Principal } from '../access/principal.js';
import { type LimitExceededError, NotOrganizationMemberError } from '../errors.js';
import { markAuthenticated } from '../limits/index.js';
import {
  buildCatalog,
  buildHandlers,
  createToolServer,
  FULL_CONNECTION,
  narrowest,
  type Connection,
  type ToolLog,
} from '../tools/index.js';
import { authenticate } from './authenticate.js';
import { jsonBodyReader } from './body.js';
import { DEFAULT_EVENT_BYTES_PER_USER, UserEventBudget } from './event-store.js';
import { sendJson } from './http-error.js';
import { InFlight } from './in-flight.js';
import { modernEra, opensListenStream } from './modern.js';
import { ResourceUpdates } from './resource-updates.js';
import { ANSWER_GATHER_MS } from './one-write.js';
import { resolveOrganization, type AuthenticatedRequest } from './org-scope.js';
import { checkOrigin } from './origin.js';
import { matchMcpRoute, type McpRoute } from './routes.js';
import { busyWhile, SessionRegistry, type SessionActivity } from './sessions.js';
import { ssePost, ssePostRefused, sseOpen } from './sse.js';
import { holdSession, streamablePost, streamableSessionRequest } from './streamable.js';
import { refuseOverLimit, ToolCallLimit } from './tool-call-limit.js';
import type { McpRouterDeps, RequestScope } from './types.js';

const DEFAULT_IDLE_MS = 30 * 60_000;
/** Under the idle timeouts of common proxies (30-60 s), so that a long call never looks dead. */
const DEFAULT_POLL_AFTER_MS = 25_000;
/** Room for the largest document plus JSON-RPC framing and escaping. */
const BODY_OVERHEAD_BYTES = 64 * 1024;
/** The methods each endpoint answers; anything else is 405 with these in Allow. */
const ALLOWED: Record<McpRoute['kind'], readonly string[]> = {
  mcp: ['GET', 'POST', 'DELETE'],
  sse: ['GET', 'POST'],
  messages: ['POST'],
};

export interface McpEndpoints {
  /**
   * Answers a request for an MCP endpoint and returns true; false for any other URL, which is
   * left to the rest of the app.
   */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /**
   * For shutdown: lets tool calls under way finish (up to `limitMs`), then closes every
   * session, so that open event streams no longer hold the server.
   */
  drain(limitMs: number): Promise<void>;
}

/**
 * The MCP endpoints: Streamable HTTP in both protocol eras (2026-07-28 per request on the v2
 * SDK, 2025-11-25 in sessions on the 1.x SDK) and legacy SSE, with the organization in a header
 * or in the path. Origin, bearer token and organization membership are checked before MCP is spoken.
 * They are served on node's request and response, not through express: its router and
 * response helpers cost about a third of an MCP call's CPU (bench/mcp.ts measures the bare
 * SDK server both ways).
 */
export function createMcpRouter(deps: McpRouterDeps): McpEndpoints {
  const { config, control, specs } = deps;
  const toolLog: ToolLog = (level, message, data) => deps.log?.[level](data ?? {}, message);
  const inFlight = new InFlight();
  const catalog = buildCatalog(deps.tools);
  const handlers = buildHandlers({
    catalog,
    pollAfterMs: deps.pollAfterMs ?? DEFAULT_POLL_AFTER_MS,
    specs,
    audit: control.audit,
    log: toolLog,
    ...(deps.render ? { render: deps.render } : {}),
    ...(deps.changeRequests ? { changeRequests: deps.changeRequests } : {}),
  });
  const idleMs = deps.sessionIdleMs ?? DEFAULT_IDLE_MS;
  const onCloseError = (error: unknown) => toolLog('warn', 'closing an MCP session failed', { error: String(error) });

  const holdOrganization = deps.holdOrganization ?? (() => () => undefined);
  const updates = new ResourceUpdates({
    commits: deps.commits ?? (() => () => undefined),
    follow: deps.follow ?? (async () => undefined),
    principalOf: (orgId, userId) => control.members.principal(orgId, userId),
    hold: (orgId) => holdOrganization(orgId),
    onError: (error) => toolLog('warn', 'a resource update was not delivered', { error: String(error) }),
  });

  const openServer = (scope: RequestScope, activity: SessionActivity) => {
    const subscriptions = updates.session(scope.orgId, scope.user.userId, (uri) => server.sendResourceUpdated({ uri }));
    const server = createToolServer(handlers, {
      userId: scope.user.userId,
      orgId: scope.orgId,
      async principal(authInfo) {
        const resolved = authInfo?.extra?.principal as Principal | undefined;
        const principal = resolved ?? (await control.members.principal(scope.orgId, scope.user.userId));
        if (!principal) throw new NotOrganizationMemberError();
        return principal;
      },
      connection: (authInfo) =>
        narrowest(scope.connection, (authInfo?.extra?.connection as Connection | undefined) ?? FULL_CONNECTION),
      track: (work) => inFlight.track(() => busyWhile(activity, work)),
      subscriptions,
    });
    server.onclose = () => subscriptions.close();
    return server;
  };
  const modern = modernEra({
    handlers,
    updates,
    track: (work) => inFlight.track(work),
    onError: (error) => toolLog('warn', 'MCP 2026-07-28 request failed', { error: String(error) }),
    origin: new URL(config.baseUrl).origin,
  });
  const basePath = new URL(config.baseUrl).pathname.replace(/\/+$/, '');
  const limits = config.userLimits;
  const toolCalls = new ToolCallLimit(limits.toolCallsPerMinute);
  const onRefused = (scope: RequestScope, error: LimitExceededError) =>
    toolLog('warn', 'tool call rate limit reached', {
      userId: scope.user.userId,
      orgId: scope.orgId,
      retryAfterSeconds: error.retryAfterSeconds,
    });
  const streamable = {
    sessions: new SessionRegistry<StreamableHTTPServerTransport>(idleMs, onCloseError, {
      maxPerUser: limits.maxSessionsPerUser,
      what: 'MCP sessions',
      howToFree: 'end a session you no longer use (DELETE /api/mcp/mcp with its Mcp-Session-Id header)',
    }),
    openServer,
    answerGatherMs: deps.answerGatherMs ?? ANSWER_GATHER_MS,
    events: new UserEventBudget(deps.eventBytesPerUser ?? DEFAULT_EVENT_BYTES_PER_USER),
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
    hold: holdOrganization,
    messagesPath: (scope: RequestScope, orgInPath: boolean) =>
      `${basePath}/api/mcp${orgInPath ? `/o/${scope.orgId}` : ''}/messages`,
  };

  const originAllowed = checkOrigin(config);
  const authenticated = authenticate(config, deps.verifyAccessToken);
  const organization = resolveOrganization(control, catalog);
  const readBody = jsonBodyReader(config.limits.maxDocumentBytes + BODY_OVERHEAD_BYTES);

  /** The caller and organization, or undefined once the refusal is answered. */
  const scopeOf = async (
    req: AuthenticatedRequest,
    res: ServerResponse,
    route: McpRoute,
  ): Promise<RequestScope | undefined> => {
    if (!originAllowed(req, res)) return undefined;
    const user = await authenticated(req, res, route);
    if (!user) return undefined;
    markAuthenticated(req);
    return organization(req, res, route, user);
  };

  // A POST accepted before shutdown is answered before its session closes, even if its body is
  // still arriving and its tool call has not started yet. Returns what stops counting it.
  const tracked = (res: ServerResponse): (() => void) => {
    let untrack = () => {};
    void inFlight.track(
      () =>
        new Promise<void>((resolve) => {
          untrack = resolve;
          res.once('close', resolve);
        }),
    );
    return () => untrack();
  };

  async function serve(req: AuthenticatedRequest, res: ServerResponse, route: McpRoute): Promise<void> {
    const method = req.method ?? '';
    const allowed = ALLOWED[route.kind];
    if (!allowed.includes(method)) {
      const allow = allowed.join(', ');
      sendJson(res, 405, { error: 'method_not_allowed', message: `${route.path} answers ${allow}` }, { Allow: allow });
      return;
    }
    if (route.kind === 'sse' && method === 'POST') {
      if (originAllowed(req, res)) ssePostRefused(config.baseUrl, route, res);
      return;
    }
    const untrack = method === 'POST' ? tracked(res) : undefined;
    const scope = await scopeOf(req, res, route);
    if (!scope) return;
    if (route.kind === 'sse') return sseOpen(sse, scope, route, res);
    if (method !== 'POST') return streamableSessionRequest(streamable, scope, req, res);
    if (route.kind === 'mcp') holdSession(streamable, scope, req, res);
    const parsed = await readBody(req, res);
    if (!parsed) return;
    if (route.kind === 'messages') return ssePost(sse, scope, route, req, parsed.body, res);
    const refusal = refuseOverLimit(toolCalls, scope, parsed.body, res);
    if (refusal) return onRefused(scope, refusal);
    // Both eras share the gate above (origin, token, organization, rate limit); the SDK's own
    // classification then picks the era, so that the two can never disagree.
    if (modern.isLegacy(req, parsed.body)) return streamablePost(streamable, scope, req, parsed.body, res);
    // A listen stream lasts as long as its client wants: shutdown ends it instead of waiting for it.
    if (opensListenStream(parsed.body)) untrack?.();
    return modern.serve(modern.webRequest(req, res), req, parsed.body, res);
  }

  const failed = (error: unknown, req: IncomingMessage, res: ServerResponse) => {
    deps.log?.error({ err: error, method: req.method, path: req.url }, 'MCP request failed');
    if (res.headersSent) res.destroy();
    else sendJson(res, 500, { error: 'internal_error', message: 'internal server error' });
  };

  return {
    handle(req, res) {
      const route = matchMcpRoute(req.url ?? '/');
      if (!route) return false;
      serve(req, res, route).catch((error: unknown) => failed(error, req, res));
      return true;
    },
    async drain(limitMs) {
      await inFlight.settled(limitMs);
      await Promise.all([streamable.sessions.closeAll(), sse.sessions.closeAll(), modern.close()]);
      updates.close();
    },
  };
}
