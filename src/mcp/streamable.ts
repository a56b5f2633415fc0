import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Request, RequestHandler, Response } from 'express';
import { LimitExceededError, PermissionDeniedError } from '../errors.js';
import { SessionEventStore } from './event-store.js';
import { sendHttpError } from './http-error.js';
import { admitOrRefuse, newActivity, type SessionActivity, type SessionRegistry } from './sessions.js';
import type { RequestScope } from './types.js';

export interface StreamableDeps {
  readonly sessions: SessionRegistry<StreamableHTTPServerTransport>;
  openServer(scope: RequestScope, activity: SessionActivity): Server;
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
function atSessionVersion(req: Request, transport: StreamableHTTPServerTransport): void {
  const version = negotiated.get(transport);
  const header = req.headers[VERSION_HEADER];
  if (!version || version < RESUMABLE_SINCE || typeof header !== 'string' || header >= version) return;
  req.headers[VERSION_HEADER] = version;
  // The transport builds its Request from the raw header list.
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() === VERSION_HEADER) req.rawHeaders[i + 1] = version;
  }
}

const jsonRpcError = (res: Response, status: number, message: string) =>
  res.status(status).json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });

/** Hands a request to its session's transport, or answers why it cannot. */
function withSession(deps: StreamableDeps, req: Request, res: Response): StreamableHTTPServerTransport | undefined {
  const id = req.headers[SESSION_HEADER];
  if (typeof id !== 'string') {
    jsonRpcError(res, 400, 'Bad Request: missing Mcp-Session-Id header; start with an initialize request');
    return undefined;
  }
  try {
    const session = deps.sessions.claim(id, res.locals.scope as RequestScope);
    if (!session) jsonRpcError(res, 404, 'Session not found');
    return session?.transport;
  } catch (error) {
    if (!(error instanceof PermissionDeniedError)) throw error;
    sendHttpError(res, error);
    return undefined;
  }
}

async function openSession(deps: StreamableDeps, req: Request, res: Response): Promise<void> {
  const scope = res.locals.scope as RequestScope;
  const release = admitOrRefuse(deps.sessions, scope.user.userId, res);
  if (!release) return;
  try {
    await startSession(deps, scope, req, res);
  } finally {
    // Added by now if the initialize succeeded; either way the reservation ends here.
    release();
  }
}

async function startSession(deps: StreamableDeps, scope: RequestScope, req: Request, res: Response): Promise<void> {
  const activity = newActivity();
  const server = deps.openServer(scope, activity);
  const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    eventStore: new SessionEventStore(),
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
  server.onclose = () => {
    if (transport.sessionId) deps.sessions.remove(transport.sessionId);
  };
  const requested = (req.body as { params?: { protocolVersion?: unknown } }).params?.protocolVersion;
  negotiated.set(
    transport,
    typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
  );
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}

/** POST: initialize opens a session bound to the caller; everything else goes to its session. */
export const streamablePost = (deps: StreamableDeps): RequestHandler => async (req, res) => {
  if (req.headers[SESSION_HEADER] === undefined) {
    if (!isInitializeRequest(req.body)) {
      jsonRpcError(res, 400, 'Bad Request: no session; the first request must be initialize');
      return;
    }
    await openSession(deps, req, res);
    return;
  }
  const transport = withSession(deps, req, res);
  if (!transport) return;
  atSessionVersion(req, transport);
  await transport.handleRequest(req, res, req.body);
};

/**
 * Before the body is read: a POST to a session makes it busy from its first byte to its answer,
 * so a session whose request is still arriving is not taken for idle.
 */
export const holdSession = (deps: StreamableDeps): RequestHandler => (req, res, next) => {
  deps.sessions.hold(req.headers[SESSION_HEADER], res.locals.scope as RequestScope, new Promise((resolve) => res.once('close', resolve)));
  next();
};

/**
 * GET (the server-to-client stream, or the resumption of a broken one with Last-Event-ID) and
 * DELETE (end the session) need an existing session.
 */
export const streamableSessionRequest = (deps: StreamableDeps): RequestHandler => async (req, res) => {
  const transport = withSession(deps, req, res);
  if (transport) await transport.handleRequest(req, res);
};
