import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  classifyInboundRequest,
  createMcpHandler,
  PROTOCOL_VERSION_META_KEY,
  type AuthInfo,
} from '@modelcontextprotocol/server';
import type { Principal } from '../access/principal.js';
import { NotOrganizationMemberError } from '../errors.js';
import {
  createModernToolServer,
  FULL_CONNECTION,
  type Connection,
  type McpHandler,
  type RequestContext,
  type ToolScope,
} from '../tools/index.js';
import type { AuthenticatedRequest } from './org-scope.js';
import type { ResourceUpdates } from './resource-updates.js';

export interface ModernEraDeps {
  readonly handlers: readonly McpHandler[];
  readonly track: RequestContext['track'];
  /** Resource subscriptions: the bus of the listen streams, bound to each request's user. */
  readonly updates: ResourceUpdates;
  readonly onError: (error: Error) => void;
  /** The public origin (scheme, host, port): the web request's URL, whatever Host said. */
  readonly origin: string;
}

/** The 2026-07-28 era: one v2 handler whose factory builds a cheap server per request. */
export interface ModernEra {
  /**
   * The web request the SDK classifies and serves, built from node's request and the body
   * already read (so no byte is read twice).
   */
  webRequest(req: IncomingMessage, res: ServerResponse): Request;
  /** The SDK's own decision: true sends the request to the 2025-era sessionful wiring. */
  isLegacy(req: IncomingMessage, body: unknown): boolean;
  serve(request: Request, req: AuthenticatedRequest, body: unknown, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

/** Who a request is for and what it may use: resolved before MCP is spoken (org-scope.ts). */
function requestOf(authInfo: AuthInfo | undefined): { scope: ToolScope; connection: Connection } {
  const principal = authInfo?.extra?.principal as Principal | undefined;
  if (!principal) throw new NotOrganizationMemberError();
  return {
    scope: { userId: principal.userId, orgId: principal.orgId, principal: async () => principal },
    connection: (authInfo?.extra?.connection as Connection | undefined) ?? FULL_CONNECTION,
  };
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  return headers;
}

/**
 * Writes a web response on node's: a JSON answer in one write, an SSE stream (a call that
 * notifies, `subscriptions/listen`) as its events come.
 */
async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (!response.body) {
    res.writeHead(response.status, headers).end();
    return;
  }
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    const body = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...headers, 'content-length': String(body.length) }).end(body);
    return;
  }
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/** The revision that begins the stateless era: a version header naming it or a later one is modern. */
const FIRST_MODERN_REVISION = '2026-07-28';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

interface PlainRequest {
  readonly method: string;
  /** Whether its `_meta` claims a protocol version (the 2026-07-28 per-request envelope). */
  readonly claimsVersion: boolean;
}

/**
 * A well-formed JSON-RPC request, read without zod: classifyInboundRequest first tries to parse
 * every body as a result and as an error response, and those failed parses were about 10 µs of
 * every call on the event loop. Undefined for anything else, which the SDK classifies.
 */
function plainRequest(body: unknown): PlainRequest | undefined {
  if (
    !isPlainObject(body) ||
    body.jsonrpc !== '2.0' ||
    typeof body.method !== 'string' ||
    'result' in body ||
    'error' in body
  )
    return undefined;
  if (typeof body.id !== 'string' && !Number.isSafeInteger(body.id)) return undefined;
  const { params } = body;
  if (params === undefined) return { method: body.method, claimsVersion: false };
  if (!isPlainObject(params)) return undefined;
  const meta = params._meta;
  if (meta === undefined) return { method: body.method, claimsVersion: false };
  return isPlainObject(meta) ? { method: body.method, claimsVersion: PROTOCOL_VERSION_META_KEY in meta } : undefined;
}

/**
 * The SDK's answer where a plain request makes it certain: one naming no 2026 revision (neither
 * in MCP-Protocol-Version nor in an envelope claim) is legacy, every call of a 2025 client; one
 * claiming a version is modern or refused, never legacy, unless it is an initialize.
 */
function eraOfPlainRequest(req: IncomingMessage, body: unknown): boolean | undefined {
  const request = plainRequest(body);
  if (!request) return undefined;
  if (request.claimsVersion) return request.method === 'initialize' ? undefined : false;
  const version = header(req, 'mcp-protocol-version')?.trim();
  return version === undefined || version < FIRST_MODERN_REVISION ? true : undefined;
}

/**
 * Exactly what the SDK's isLegacyRequest decides for a body already read: a request that is not
 * JSON is legacy (the 2025 transport answers it), any other is classified by the SDK's
 * classifyInboundRequest, which isLegacyRequest calls. Asked directly, it needs no web Request:
 * building one for every 2025 call cost 65 µs, a tenth of a read's server time.
 */
export function isLegacy(req: IncomingMessage, body: unknown): boolean {
  if (body === undefined) return true;
  const plain = eraOfPlainRequest(req, body);
  if (plain !== undefined) return plain;
  const versionHeader = header(req, 'mcp-protocol-version');
  const methodHeader = header(req, 'mcp-method');
  const nameHeader = header(req, 'mcp-name');
  const outcome = classifyInboundRequest({
    httpMethod: req.method ?? 'POST',
    body,
    ...(versionHeader !== undefined ? { protocolVersionHeader: versionHeader } : {}),
    ...(methodHeader !== undefined ? { mcpMethodHeader: methodHeader } : {}),
    ...(nameHeader !== undefined ? { mcpNameHeader: nameHeader } : {}),
  });
  return outcome.kind === 'legacy';
}

/** A `subscriptions/listen` request: the one kind whose answer subscribes to the event bus. */
export const opensListenStream = (body: unknown): boolean =>
  isPlainObject(body) && body.method === 'subscriptions/listen';

export function modernEra(deps: ModernEraDeps): ModernEra {
  const handler = createMcpHandler(() => createModernToolServer(deps.handlers, requestOf, deps.track), {
    legacy: 'reject',
    onerror: deps.onError,
    bus: deps.updates.bus,
  });
  return {
    webRequest(req, res) {
      const controller = new AbortController();
      // A client that goes away cancels its exchange (and ends its listen stream).
      res.once('close', () => controller.abort());
      return new Request(`${deps.origin}${req.url ?? '/'}`, {
        method: req.method ?? 'POST',
        headers: headersOf(req),
        signal: controller.signal,
      });
    },
    isLegacy: (req, body) => isLegacy(req, body),
    async serve(request, req, body, res) {
      const authInfo = req.auth as AuthInfo | undefined;
      const principal = authInfo?.extra?.principal as Principal | undefined;
      const fetched = () => handler.fetch(request, { parsedBody: body, ...(authInfo ? { authInfo } : {}) });
      const response =
        principal && opensListenStream(body)
          ? await deps.updates.as({ orgId: principal.orgId, userId: principal.userId }, fetched)
          : await fetched();
      await writeResponse(response, res);
    },
    close: () => handler.close(),
  };
}
