import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness, type Persona } from '../../support/harness.js';
import { callTool, initialize, startToolCall, type McpSession } from '../startup/rpc.js';
import { call, connect, mcpUrl } from './clients.js';

const SESSIONS = 3;
const SSE_STREAMS = 2;
const CALLS_PER_MINUTE = 6;

let h: Harness;
const clients: Client[] = [];

beforeAll(async () => {
  h = await startHarness({
    env: {
      SPECBASE_MAX_SESSIONS_PER_USER: String(SESSIONS),
      SPECBASE_MAX_SSE_STREAMS_PER_USER: String(SSE_STREAMS),
      SPECBASE_TOOL_CALLS_PER_MINUTE: String(CALLS_PER_MINUTE),
    },
  });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => {})));
  await h?.close();
});

const headers = (persona: Persona) => ({
  Authorization: `Bearer ${h.users[persona].token}`,
  'X-Organization-Id': h.orgId,
});
const rawSession = (persona: Persona) => initialize(mcpUrl(h, 'streamable').href, headers(persona));
const postInitialize = (persona: Persona) =>
  fetch(mcpUrl(h, 'streamable'), {
    method: 'POST',
    headers: { ...headers(persona), 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'limits-test', version: '1' } },
    }),
  });
const postToolCall = (session: McpSession) =>
  fetch(session.url, {
    method: 'POST',
    headers: { ...session.headers, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 42,
      method: 'tools/call',
      params: { name: 'specbase_read_product', arguments: {} },
    }),
  });

describe('open MCP sessions per user', () => {
  it('at the cap, a new session replaces the least recently used idle one; the others keep working', async () => {
    const [first, second, third] = [await rawSession('viewer'), await rawSession('viewer'), await rawSession('viewer')];
    await callTool(first!, 'specbase_read_product', {});
    const fourth = await rawSession('viewer');
    expect((await postToolCall(second!)).status).toBe(404);
    for (const session of [first!, third!, fourth])
      expect((await callTool(session, 'specbase_read_product', {})).id).toBe(h.productId);
  });

  it('when every session has a request under way, a new one is refused with 429 saying what to do, and nothing is closed', async () => {
    const sessions = [await rawSession('partial'), await rawSession('partial'), await rawSession('partial')];
    const pending = sessions.map((session) => startToolCall(session, 'specbase_read_product', {}));
    // The three requests have reached the server (their bodies are still arriving).
    await new Promise((resolve) => setTimeout(resolve, 500));
    const refused = await postInitialize('partial');
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: string; message: string };
    expect(body.error).toBe('rate_limited');
    expect(body.message).toMatch(
      /you have 3 open MCP sessions, the most one user may have, and every one has a tool call under way; end a session you no longer use \(DELETE \/api\/mcp\/mcp with its Mcp-Session-Id header\), or wait/,
    );
    for (const call of pending) call.finish();
    for (const call of pending) expect((await call.result).id).toBe(h.productId);
    expect((await postInitialize('partial')).status).toBe(200);
  });

  it('the cap is per user: another user opens sessions meanwhile', async () => {
    expect((await postInitialize('owner')).status).toBe(200);
  });

  it('SSE streams have their own cap: the least recently used idle stream is closed for a new one', async () => {
    const first = await openSseStream('viewer');
    const second = await openSseStream('viewer');
    const third = await openSseStream('viewer');
    expect(await first.ended()).toBe(true);
    expect(await second.ended(300)).toBe(false);
    expect(await third.ended(300)).toBe(false);
    second.close();
    third.close();
  });
});

/** A legacy SSE stream read by hand: the SDK client's EventSource would reconnect on its own. */
async function openSseStream(persona: Persona): Promise<{ ended(waitMs?: number): Promise<boolean>; close(): void }> {
  const abort = new AbortController();
  const response = await fetch(mcpUrl(h, 'sse'), { headers: headers(persona), signal: abort.signal });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  let text = '';
  while (!text.includes('event: endpoint')) text += new TextDecoder().decode((await reader.read()).value);
  const end = (async () => {
    for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return true;
  })();
  return {
    ended: (waitMs = 5_000) =>
      Promise.race([end, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), waitMs))]),
    close: () => abort.abort(),
  };
}

describe('tool calls per user and organization', () => {
  it('Streamable HTTP: over the limit is HTTP 429 with Retry-After and a JSON-RPC error that says when to retry', async () => {
    const client = await connect(h, 'editor', 'streamable');
    clients.push(client);
    for (let i = 0; i < CALLS_PER_MINUTE; i++) await call(client, 'specbase_read_product');
    // Listing tools is not a tool call.
    expect((await client.listTools()).tools.length).toBe(31);
    await expect(client.callTool({ name: 'specbase_read_product', arguments: {} })).rejects.toThrow(
      /too many tool calls: .*retry in \d+ seconds?/,
    );

    const raw = await rawSession('editor');
    const refused = await postToolCall(raw);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    // One call comes back every 60/6 = 10 seconds.
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);
    const body = (await refused.json()) as {
      id: number;
      error: { message: string; data: { retryAfterSeconds: number } };
    };
    expect(body.id).toBe(42);
    expect(body.error.message).toBe(
      `too many tool calls: at most ${CALLS_PER_MINUTE} a minute for one user in one organization; retry in ${retryAfter} second${retryAfter === 1 ? '' : 's'}`,
    );
    expect(body.error.data.retryAfterSeconds).toBe(retryAfter);
  });

  it('legacy SSE: over the limit the call gets a tool error result that says when to retry', async () => {
    const client = await connect(h, 'owner', 'sse');
    clients.push(client);
    for (let i = 0; i < CALLS_PER_MINUTE; i++) await call(client, 'specbase_read_product');
    const result = (await client.callTool({ name: 'specbase_read_product', arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(
      /^too many tool calls: at most 6 a minute for one user in one organization; retry in \d+ seconds?$/,
    );
  });
});
