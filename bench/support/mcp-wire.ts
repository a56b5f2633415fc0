import http from 'node:http';

/**
 * A minimal MCP client over Streamable HTTP for load generation: plain JSON-RPC POSTs on a
 * keep-alive agent, so that the load generator spends as little CPU per call as possible and
 * the same for every server it drives. (The SDK client also validates every result against the
 * tool's output schema, which would make the load generator the bottleneck on two cores.)
 */
export interface WireSession {
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly agent: http.Agent;
  /** 2026-07-28 calls carry their version and client in every request: there is no session. */
  readonly era: WireEra;
  nextId: number;
}

/** The protocol era a load generator speaks: 2025 sessions, or 2026-07-28 stateless requests. */
export type WireEra = 'legacy' | 'modern';

const PROTOCOL_VERSION = '2025-06-18';
const MODERN_VERSION = '2026-07-28';
const MODERN_ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'specbase-bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface RpcAnswer {
  readonly status: number;
  readonly sessionId: string | undefined;
  readonly message: { result?: unknown; error?: { message: string } } | undefined;
}

function post(url: URL, headers: Record<string, string>, agent: http.Agent, body: unknown): Promise<RpcAnswer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          ...headers,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const sessionId = res.headers['mcp-session-id'];
          resolve({
            status: res.statusCode ?? 0,
            sessionId: typeof sessionId === 'string' ? sessionId : undefined,
            message: parseMessage(text),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The JSON-RPC response in a JSON body or in the data lines of an SSE stream. */
function parseMessage(text: string): RpcAnswer['message'] {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  if (trimmed.startsWith('{')) return JSON.parse(trimmed) as RpcAnswer['message'];
  const data = trimmed
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim());
  return data.length ? (JSON.parse(data[data.length - 1]!) as RpcAnswer['message']) : undefined;
}

export async function openSession(
  url: URL,
  headers: Record<string, string>,
  agent: http.Agent,
  era: WireEra = 'legacy',
): Promise<WireSession> {
  if (era === 'modern')
    return { url, headers: { ...headers, 'mcp-protocol-version': MODERN_VERSION }, agent, era, nextId: 1 };
  const init = await post(url, headers, agent, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'specbase-bench', version: '1.0.0' },
    },
  });
  if (init.status !== 200 || !init.sessionId)
    throw new Error(`initialize failed: HTTP ${init.status} ${JSON.stringify(init.message)}`);
  const session: WireSession = {
    url,
    headers: { ...headers, 'mcp-session-id': init.sessionId, 'mcp-protocol-version': PROTOCOL_VERSION },
    agent,
    era,
    nextId: 1,
  };
  const notified = await post(url, session.headers, agent, { jsonrpc: '2.0', method: 'notifications/initialized' });
  if (notified.status >= 300) throw new Error(`initialized notification failed: HTTP ${notified.status}`);
  return session;
}

/** Calls a tool; resolves with the error text for a tool error or a JSON-RPC error, else null. */
export async function callTool(
  session: WireSession,
  name: string,
  args: Record<string, unknown>,
): Promise<string | null> {
  const modern = session.era === 'modern';
  const headers = modern ? { ...session.headers, 'mcp-method': 'tools/call', 'mcp-name': name } : session.headers;
  const answer = await post(session.url, headers, session.agent, {
    jsonrpc: '2.0',
    id: session.nextId++,
    method: 'tools/call',
    params: { name, arguments: args, ...(modern ? { _meta: MODERN_ENVELOPE } : {}) },
  });
  if (answer.status !== 200) return `HTTP ${answer.status}`;
  if (answer.message?.error) return answer.message.error.message;
  const result = answer.message?.result as { isError?: boolean; content?: { text?: string }[] } | undefined;
  if (!result) return 'no result';
  return result.isError ? (result.content?.[0]?.text ?? 'tool error') : null;
}

export async function closeSession(session: WireSession): Promise<void> {
  if (session.era === 'modern') return;
  await new Promise<void>((resolve) => {
    const req = http.request(
      session.url,
      { method: 'DELETE', agent: session.agent, headers: session.headers },
      (res) => {
        res.resume();
        res.on('end', resolve);
      },
    );
    req.on('error', () => resolve());
    req.end();
  });
}
