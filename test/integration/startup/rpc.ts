import http from 'node:http';

/** What a Streamable HTTP client sends with every MCP request. */
export interface McpSession {
  readonly url: string;
  readonly headers: Record<string, string>;
}

let nextId = 1;

/** The JSON-RPC message in a Streamable HTTP response, whether sent as JSON or as one SSE event. */
function parseMessage(contentType: string | null, body: string): Record<string, any> {
  if (!contentType?.startsWith('text/event-stream')) return JSON.parse(body) as Record<string, any>;
  const data = body
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice('data: '.length));
  return JSON.parse(data.at(-1)!) as Record<string, any>;
}

/**
 * A raw MCP initialize: no SDK client, so no standalone GET stream stays open. From protocol
 * version 2025-11-25 on, the session's answers are resumable (each opens with a priming event).
 */
export async function initialize(
  url: string,
  headers: Record<string, string>,
  protocolVersion = '2025-06-18',
): Promise<McpSession> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'startup-test', version: '1' } },
    }),
  });
  const message = parseMessage(response.headers.get('content-type'), await response.text());
  if (!message.result) throw new Error(`initialize failed: ${JSON.stringify(message)}`);
  const session = {
    url,
    headers: {
      ...headers,
      'Mcp-Session-Id': response.headers.get('mcp-session-id')!,
      'Mcp-Protocol-Version': message.result.protocolVersion as string,
    },
  };
  await fetch(url, {
    method: 'POST',
    headers: { ...session.headers, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return session;
}

/** The structured result of a tool call that must succeed. */
export async function callTool(
  session: McpSession,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, any>> {
  const pending = startToolCall(session, name, args);
  pending.finish();
  return pending.result;
}

export interface PendingCall {
  /** Sends the rest of the request body. */
  finish(): void;
  readonly result: Promise<Record<string, any>>;
}

/**
 * A tool call whose request line, headers and first half of the body are on the wire at once,
 * and the rest only on `finish()`: the server holds it as an in-flight request in between.
 */
export function startToolCall(session: McpSession, name: string, args: Record<string, unknown>): PendingCall {
  const body = Buffer.from(
    JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } }),
  );
  const half = Math.floor(body.length / 2);
  const request = http.request(session.url, {
    method: 'POST',
    headers: {
      ...session.headers,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'Content-Length': String(body.length),
    },
  });
  const result = new Promise<Record<string, any>>((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('error', reject);
      response.on('end', () => {
        try {
          const message = parseMessage(response.headers['content-type'] ?? null, text);
          if (!message.result || message.result.isError) reject(new Error(`${name} failed: ${text}`));
          else resolve(message.result.structuredContent as Record<string, any>);
        } catch (error) {
          reject(new Error(`${name}: unreadable response ${response.statusCode}: ${text} (${String(error)})`));
        }
      });
    });
  });
  request.flushHeaders();
  request.write(body.subarray(0, half));
  return { finish: () => request.end(body.subarray(half)), result };
}
