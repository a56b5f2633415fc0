import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  isInitializeRequest,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { PermissionDeniedError } from '../errors.js';
import type { UserEventBudget } from './event-store.js';
import { sendHttpError, sendJsonRpcError } from './http-error.js';
import { gatherAnswer } from './one-write.js';
import type { AuthenticatedRequest } from './org-scope.js';
import { admitOrRefuse, newActivity, type SessionActivity, type SessionRegistry } from './sessions.js';
import type { RequestScope } from './types.js';

export interface StreamableDeps {
  readonly sessions: SessionRegistry<StreamableHTTPServerTransport>;
  openServer(scope: RequestScope, activity: SessionActivity): Server;
  /** See gatherAnswer. */
  readonly answerGatherMs: number;
  /** Where sessions keep their events for resumption, within each user's budget. */
  readonly events: UserEventBudget;
}

const SESSION_HEADER = 'mcp-session-id';
const VERSION_HEADER = 'mcp-protocol-version';
/** How long a client whose stream closed waits before it reconnects with Last-Event-ID. */
const RETRY_MS = 1000;
/** Resumable streams (a priming event with an id before anything else) came with this version. */
const RESUMABLE_SINCE = '2025-11-25';

/** The protocol version each session negotiated at initialize. */
const negotiated = new WeakMap<StreamableHTTPServerTransport, string>();

/**
 * A request's header may name an older protocol version than its session negotiated; the
 * session's version decides whether its streams are resumable, since the client showed at
 * initialize that it understands priming events.
 */
function atSessionVersion(req: AuthenticatedRequest, transport: StreamableHTTPServerTransport): void {
  const version = negotiated.get(transport);
  const header = req.headers[VERSION_HEADER];
  if (!version || version < RESUMABLE_SINCE || typeof header !== 'string' || header >= version) return;
  req.headers[VERSION_HEADER] = version;
  // The transport builds its Request from the raw header list.
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() === VERSION_HEADER) req.rawHeaders[i + 1] = version;
  }
}

/** Hands a request to its session's transport, or answers why it cannot. */
function withSession(
  deps: StreamableDeps,
  scope: RequestScope,
  req: AuthenticatedRequest,
  res: ServerResponse,
): StreamableHTTPServerTransport | undefined {
  const id = req.headers[SESSION_HEADER];
  if (typeof id !== 'string') {
    sendJsonRpcError(res, 400, {
      message: 'Bad Request: missing Mcp-Session-Id header; start with an initialize request',
    });
    return undefined;
  }
  try {
    const session = deps.sessions.claim(id, scope);
    if (!session) sendJsonRpcError(res, 404, { message: 'Session not found' });
    return session?.transport;
  } catch (error) {
    if (!(error instanceof PermissionDeniedError)) throw error;
    sendHttpError(res, error);
    return undefined;
  }
}

async function openSession(
  deps: StreamableDeps,
  scope: RequestScope,
  req: AuthenticatedRequest,
  body: unknown,
  res: ServerResponse,
): Promise<void> {
  const release = admitOrRefuse(deps.sessions, scope.user.userId, res);
  if (!release) return;
  try {
    await startSession(deps, scope, req, body, res);
  } finally {
    // Added by now if the initialize succeeded; either way the reservation ends here.
    release();
  }
}

async function startSession(
  deps: StreamableDeps,
  scope: RequestScope,
  req: AuthenticatedRequest,
  body: unknown,
  res: ServerResponse,
): Promise<void> {
  const activity = newActivity();
  const server = deps.openServer(scope, activity);
  const eventStore = deps.events.storeFor(scope.user.userId);
  const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    eventStore,
    retryInterval: RETRY_MS,
    onsessioninitialized: (id) =>
      deps.sessions.add({
        id,
        userId: scope.user.userId,
        orgId: scope.orgId,
        transport,
        close: () => server.close(),
        activity,
      }),
  });
  const closeServer = server.onclose;
  server.onclose = () => {
    closeServer?.();
    eventStore.close();
    if (transport.sessionId) deps.sessions.remove(transport.sessionId);
  };
  const requested = (body as { params?: { protocolVersion?: unknown } }).params?.protocolVersion;
  negotiated.set(
    transport,
    typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
      ? requested
      : LATEST_PROTOCOL_VERSION,
  );
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

/** POST: initialize opens a session bound to the caller; everything else goes to its session. */
export async function streamablePost(
  deps: StreamableDeps,
  scope: RequestScope,
  req: AuthenticatedRequest,
  body: unknown,
  res: ServerResponse,
): Promise<void> {
  if (req.headers[SESSION_HEADER] === undefined) {
    if (!isInitializeRequest(body)) {
      sendJsonRpcError(res, 400, { message: 'Bad Request: no session; the first request must be initialize' });
      return;
    }
    await openSession(deps, scope, req, body, res);
    return;
  }
  const transport = withSession(deps, scope, req, res);
  if (!transport) return;
  atSessionVersion(req, transport);
  gatherAnswer(res, deps.answerGatherMs);
  await transport.handleRequest(req, res, body);
}

/**
 * Before the body is read: a POST to a session makes it busy from its first byte to its answer,
 * so a session whose request is still arriving is not taken for idle.
 */
export function holdSession(
  deps: StreamableDeps,
  scope: RequestScope,
  req: AuthenticatedRequest,
  res: ServerResponse,
): void {
  deps.sessions.hold(req.headers[SESSION_HEADER], scope, new Promise((resolve) => res.once('close', resolve)));
}

/**
 * GET (the server-to-client stream, or the resumption of a broken one with Last-Event-ID) and
 * DELETE (end the session) need an existing session.
 */
export async function streamableSessionRequest(
  deps: StreamableDeps,
  scope: RequestScope,
  req: AuthenticatedRequest,
  res: ServerResponse,
): Promise<void> {
  const transport = withSession(deps, scope, req, res);
  if (transport) await transport.handleRequest(req, res);
}
