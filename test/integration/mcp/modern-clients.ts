import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Harness, Persona } from '../../support/harness.js';
import { callAny, callAnyError, type Elicitor } from './clients.js';

/** How a v2 client negotiates: pinned to the 2026-07-28 revision, or probing (`auto`). */
export type Negotiation = 'pinned' | 'auto';

export interface ModernConnectOptions {
  /** Organization in the path (`/api/mcp/o/{orgId}/mcp`) instead of the header. */
  readonly orgInPath?: boolean;
  /** Extra request headers (e.g. X-Specbase-Readonly). */
  readonly headers?: Record<string, string>;
  /** A path to connect to instead of the default endpoint. */
  readonly path?: string;
  readonly token?: string;
  /** Declares elicitation and answers as the elicitor does. */
  readonly elicit?: Elicitor;
}

/** A v2 SDK client (`@modelcontextprotocol/client`) signed in as `persona` over real HTTP. */
export async function connectModern(
  h: Harness,
  persona: Persona,
  negotiation: Negotiation = 'pinned',
  options: ModernConnectOptions = {},
): Promise<Client> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${options.token ?? h.users[persona].token}`,
    ...options.headers,
  };
  if (!options.orgInPath && !options.path) headers['X-Organization-Id'] = h.orgId;
  const path = options.path ?? (options.orgInPath ? `/api/mcp/o/${h.orgId}/mcp` : '/api/mcp/mcp');
  const transport = new StreamableHTTPClientTransport(new URL(path, h.baseUrl), { requestInit: { headers } });
  const client = new Client(
    { name: 'specbase-modern-test-client', version: '1.0.0' },
    {
      versionNegotiation: { mode: negotiation === 'pinned' ? { pin: '2026-07-28' } : 'auto' },
      ...(options.elicit ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  const elicit = options.elicit;
  if (elicit) client.setRequestHandler('elicitation/create', (request) => elicit.answer(request.params.message));
  await client.connect(transport);
  return client;
}

/** A tool call that must succeed; its text and structured content. */
export const callModern = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  callAny(client, name, args);

/** A tool call that must fail; its one sentence. */
export const callModernError = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  callAnyError(client, name, args);

/** The `_meta` envelope every 2026-07-28 request carries. */
export const MODERN_ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw-http', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** One 2026-07-28 request in plain HTTP: the status and the JSON-RPC answer as sent. */
export async function modernRaw(
  h: Harness,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  const response = await fetch(new URL('/api/mcp/mcp', h.baseUrl), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      Authorization: `Bearer ${h.users.owner.token}`,
      'X-Organization-Id': h.orgId,
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': method,
      ...(name !== undefined ? { 'Mcp-Name': name } : {}),
      ...headers,
    },
    // A request's own `_meta` entries (a client's capabilities) replace the envelope's.
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: { ...params, _meta: { ...MODERN_ENVELOPE, ...(params._meta as object | undefined) } },
    }),
  });
  const text = await response.text();
  return { status: response.status, bytes: Buffer.byteLength(text), json: JSON.parse(text) as Record<string, any> };
}
