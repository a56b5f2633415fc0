import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import type { Harness, Persona } from '../../support/harness.js';

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
}

/** A v2 SDK client (`@modelcontextprotocol/client`) signed in as `persona` over real HTTP. */
export async function connectModern(h: Harness, persona: Persona, negotiation: Negotiation = 'pinned', options: ModernConnectOptions = {}): Promise<Client> {
  const headers: Record<string, string> = { Authorization: `Bearer ${options.token ?? h.users[persona].token}`, ...options.headers };
  if (!options.orgInPath && !options.path) headers['X-Organization-Id'] = h.orgId;
  const path = options.path ?? (options.orgInPath ? `/api/mcp/o/${h.orgId}/mcp` : '/api/mcp/mcp');
  const transport = new StreamableHTTPClientTransport(new URL(path, h.baseUrl), { requestInit: { headers } });
  const client = new Client(
    { name: 'specbase-modern-test-client', version: '1.0.0' },
    { versionNegotiation: { mode: negotiation === 'pinned' ? { pin: '2026-07-28' } : 'auto' } },
  );
  await client.connect(transport);
  return client;
}

/** A tool call that must succeed; its text and structured content. */
export async function callModern(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return { text: (result.content[0] as { text: string }).text, data: result.structuredContent as Record<string, any> };
}

/** A tool call that must fail; its one sentence. */
export async function callModernError(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (!result.isError) throw new Error(`${name} unexpectedly succeeded: ${JSON.stringify(result.structuredContent)}`);
  return (result.content[0] as { text: string }).text;
}
