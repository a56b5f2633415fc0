import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Harness, Persona } from '../../support/harness.js';

export type TransportKind = 'streamable' | 'sse' | 'streamable-path' | 'sse-path';
export const TRANSPORTS: readonly TransportKind[] = ['streamable', 'sse', 'streamable-path', 'sse-path'];

export function mcpUrl(h: Harness, kind: TransportKind): URL {
  const suffix = kind.startsWith('sse') ? 'sse' : 'mcp';
  return new URL(kind.endsWith('-path') ? `/api/mcp/o/${h.orgId}/${suffix}` : `/api/mcp/${suffix}`, h.baseUrl);
}

/** An SDK client signed in as `persona`, over a real HTTP transport of the running harness. */
export async function connect(
  h: Harness,
  persona: Persona,
  kind: TransportKind = 'streamable',
  name = 'specbase-test-client',
  options: {
    readonly headers?: Record<string, string>;
    readonly url?: URL;
    readonly token?: string;
    /** Declares elicitation and answers every question so (the messages asked are pushed to `asked`). */
    readonly elicit?: Elicitor;
  } = {},
): Promise<Client> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${options.token ?? h.users[persona].token}`,
    ...options.headers,
  };
  if (!kind.endsWith('-path')) headers['X-Organization-Id'] = h.orgId;
  const url = options.url ?? mcpUrl(h, kind);
  const transport = kind.startsWith('sse')
    ? new SSEClientTransport(url, {
        requestInit: { headers },
        // The SSE stream is a GET made by an EventSource, which takes its headers from fetch.
        eventSourceInit: {
          fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as object), ...headers } }),
        },
      })
    : new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const client = new Client(
    { name, version: '1.0.0' },
    options.elicit ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  const elicit = options.elicit;
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit.answer(request.params.message));
  await client.connect(transport);
  return client;
}

/** A user behind an elicitation-capable client: what they were asked, and how they answer. */
export interface Elicitor {
  readonly asked: string[];
  answer(message: string): Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, boolean> }>;
}

/** A user who always answers `action` (ticking the box when they accept). */
export function elicitor(action: 'accept' | 'decline'): Elicitor {
  const asked: string[] = [];
  return {
    asked,
    answer: async (message) => {
      asked.push(message);
      return action === 'accept' ? { action, content: { confirm: true } } : { action };
    },
  };
}

/** A tool call that must succeed; its text and structured content (either SDK line: see callAny). */
export const call = (client: Client, name: string, args: Record<string, unknown> = {}) => callAny(client, name, args);

/** A tool call that must fail; its one sentence. */
export const callError = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  callAnyError(client, name, args);

/** A client of either SDK line: the 1.x one (2025 era) or the v2 one (2026-07-28). */
export type AnyClient = Client | import('@modelcontextprotocol/client').Client;

type AnyResult = {
  isError?: boolean;
  content: { type: string; text?: string; uri?: string }[];
  structuredContent?: unknown;
};

/** A tool call through either SDK line that must succeed: its text, structured content and content blocks. */
export async function callAny(client: AnyClient, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as AnyResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return {
    text: result.content[0]!.text!,
    data: result.structuredContent as Record<string, any>,
    content: result.content,
  };
}

/** A tool call through either SDK line that must fail; its one sentence. */
export async function callAnyError(
  client: AnyClient,
  name: string,
  args: Record<string, unknown> = {},
): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as AnyResult;
  if (!result.isError) throw new Error(`${name} unexpectedly succeeded: ${JSON.stringify(result.structuredContent)}`);
  return result.content[0]!.text!;
}
