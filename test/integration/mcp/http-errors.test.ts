import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/ids.js';
import { startHarness, type Harness } from '../../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-http', version: '1' } },
};

interface RawOptions {
  path?: string;
  token?: string | null;
  org?: string | null;
  origin?: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: unknown;
}

/** A plain HTTP request to an MCP route, defaulting to the owner's valid initialize. */
async function raw(options: RawOptions = {}) {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    ...options.headers,
  };
  const token = options.token === undefined ? h.users.owner.token : options.token;
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  const org = options.org === undefined ? h.orgId : options.org;
  if (org !== null) headers['X-Organization-Id'] = org;
  if (options.origin) headers.Origin = options.origin;
  const method = options.method ?? 'POST';
  const controller = new AbortController();
  const response = await fetch(new URL(options.path ?? '/api/mcp/mcp', h.baseUrl), {
    method,
    headers,
    signal: controller.signal,
    ...(method === 'POST' ? { body: JSON.stringify(options.body ?? INITIALIZE) } : {}),
  });
  const isStream = response.headers.get('content-type')?.startsWith('text/event-stream');
  const body = isStream ? undefined : await response.text();
  controller.abort();
  return {
    status: response.status,
    headers: response.headers,
    json: body ? (JSON.parse(body) as Record<string, any>) : undefined,
  };
}

describe('authorization', () => {
  it.each([
    ['/api/mcp/mcp', 'POST'],
    ['/api/mcp/sse', 'GET'],
    ['/api/mcp/messages?sessionId=x', 'POST'],
  ] as const)('is required on %s (%s): 401 with the resource metadata challenge', async (path, method) => {
    const response = await raw({ path, method, token: null });
    expect(response.status).toBe(401);
    expect(response.json).toMatchObject({ error: 'unauthorized' });
    const resource = path.startsWith('/api/mcp/mcp') ? '/api/mcp/mcp' : '/api/mcp/sse';
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${h.baseUrl}/.well-known/oauth-protected-resource${resource}"`,
    );
  });

  it('names the org-in-path route in its challenge', async () => {
    const response = await raw({ path: `/api/mcp/o/${h.orgId}/mcp`, token: null, org: null });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(
      `/.well-known/oauth-protected-resource/api/mcp/o/${h.orgId}/mcp"`,
    );
  });

  it('rejects an invalid token with 401 invalid_token', async () => {
    for (const token of ['sbp_not-a-real-token', 'some-oauth-looking-token']) {
      const response = await raw({ token });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", resource_metadata="/);
    }
  });

  it('rejects an expired token with 401', async () => {
    // Three seconds of life: with other test files beside it, its first call took over one.
    const expiresAt = new Date(Date.now() + 3_000);
    const { secret } = await h.services.control.tokens.create({
      userId: h.users.editor.user.id,
      name: 'short-lived',
      expiresAt,
    });
    expect((await raw({ token: secret })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 100));
    const response = await raw({ token: secret });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('rejects a revoked token with 401', async () => {
    const { secret, token } = await h.services.control.tokens.create({
      userId: h.users.editor.user.id,
      name: 'revoked',
    });
    await h.services.control.tokens.revoke(token.id, h.users.editor.user.id);
    expect((await raw({ token: secret })).status).toBe(401);
  });
});

describe('organization scope', () => {
  it('answers a missing X-Organization-Id with 400 missing_organization_header', async () => {
    for (const [path, method] of [
      ['/api/mcp/mcp', 'POST'],
      ['/api/mcp/sse', 'GET'],
    ] as const) {
      const response = await raw({ path, method, org: null });
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({ error: 'missing_organization_header' });
      expect(response.json!.message).toMatch(/X-Organization-Id/);
    }
  });

  it('answers a value that is not a UUID with 400 invalid_organization_id, in the header or the path', async () => {
    const header = await raw({ org: 'acme-groceries' });
    expect(header.status).toBe(400);
    expect(header.json).toMatchObject({ error: 'invalid_organization_id' });
    expect(header.json!.message).toMatch(/valid UUID/);
    const path = await raw({ path: '/api/mcp/o/acme-groceries/mcp', org: null });
    expect(path.status).toBe(400);
    expect(path.json).toMatchObject({ error: 'invalid_organization_id' });
  });

  it('answers a non-member, or an unknown organization, with 403 not_a_member', async () => {
    const outsider = await raw({ token: h.users.outsider.token });
    expect(outsider.status).toBe(403);
    expect(outsider.json).toMatchObject({ error: 'not_a_member' });
    expect(outsider.json!.message).toMatch(/not a member/);
    expect(
      (await raw({ path: `/api/mcp/o/${h.orgId}/sse`, method: 'GET', token: h.users.outsider.token, org: null }))
        .status,
    ).toBe(403);
    expect((await raw({ org: newId() })).status).toBe(403);
  });

  it('treats the organization UUID case-insensitively, as UUIDs are', async () => {
    expect((await raw({ org: h.orgId.toUpperCase() })).status).toBe(200);
    expect((await raw({ path: `/api/mcp/o/${h.orgId.toUpperCase()}/mcp`, org: null })).status).toBe(200);
  });

  it('accepts members, with the organization in the header or in the path', async () => {
    const header = await raw({ token: h.users.viewer.token });
    expect(header.status).toBe(200);
    expect(header.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await raw({ path: `/api/mcp/o/${h.orgId}/mcp`, org: null })).status).toBe(200);
  });
});

describe('Origin (DNS rebinding)', () => {
  it('refuses a foreign Origin with 403, even with valid credentials', async () => {
    for (const [path, method] of [
      ['/api/mcp/mcp', 'POST'],
      ['/api/mcp/sse', 'GET'],
    ] as const) {
      const response = await raw({ path, method, origin: 'https://evil.example' });
      expect(response.status).toBe(403);
      expect(response.json!.message).toMatch(/origin https:\/\/evil\.example/);
    }
  });

  it('allows our own origin and loopback on our port', async () => {
    const port = new URL(h.baseUrl).port;
    expect((await raw({ origin: new URL(h.baseUrl).origin })).status).toBe(200);
    expect((await raw({ origin: `http://localhost:${port}` })).status).toBe(200);
    expect((await raw({ origin: 'http://localhost:1' })).status).toBe(403);
  });
});

describe('sessions', () => {
  it('belong to the user and organization that opened them', async () => {
    const opened = await raw();
    const sessionId = opened.headers.get('mcp-session-id')!;
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    const headers = { 'Mcp-Session-Id': sessionId, 'Mcp-Protocol-Version': '2025-06-18' };
    const stolen = await raw({ token: h.users.editor.token, headers, body: list });
    expect(stolen.status).toBe(403);
    expect(stolen.json).toMatchObject({ error: 'permission_denied' });
    expect((await raw({ headers, body: list })).status).toBe(200);
  });

  it('are required after initialize, and unknown ones are 404', async () => {
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    expect((await raw({ body: list })).status).toBe(400);
    expect((await raw({ body: list, headers: { 'Mcp-Session-Id': newId() } })).status).toBe(404);
  });

  it('of the SSE transport refuse messages from another user', async () => {
    const controller = new AbortController();
    const stream = await fetch(new URL('/api/mcp/sse', h.baseUrl), {
      headers: { Authorization: `Bearer ${h.users.owner.token}`, 'X-Organization-Id': h.orgId },
      signal: controller.signal,
    });
    const reader = stream.body!.getReader();
    let text = '';
    while (!text.includes('sessionId=')) text += new TextDecoder().decode((await reader.read()).value);
    const endpoint = /data: (\S+)/.exec(text)![1]!;
    expect(endpoint).toMatch(/^\/api\/mcp\/messages\?sessionId=/);
    const post = await raw({ path: endpoint, token: h.users.editor.token, body: INITIALIZE });
    expect(post.status).toBe(403);
    controller.abort();
  });

  it('of the SSE transport are named in a response header of the stream, for a load balancer to stick to', async () => {
    const controller = new AbortController();
    const stream = await fetch(new URL('/api/mcp/sse', h.baseUrl), {
      headers: { Authorization: `Bearer ${h.users.owner.token}`, 'X-Organization-Id': h.orgId },
      signal: controller.signal,
    });
    const reader = stream.body!.getReader();
    let text = '';
    while (!text.includes('sessionId=')) text += new TextDecoder().decode((await reader.read()).value);
    const fromEvent = /sessionId=([\w-]+)/.exec(text)![1];
    expect(stream.headers.get('mcp-session-id')).toBe(fromEvent);
    controller.abort();
    // A session this process never opened (say, one of a replica that died) is 404, as the specification requires.
    expect((await raw({ path: `/api/mcp/messages?sessionId=${newId()}`, body: INITIALIZE })).status).toBe(404);
  });
});

describe('POST on the SSE URL (mcp-remote tries Streamable HTTP first)', () => {
  it.each([
    ['/api/mcp/sse', () => `${h.baseUrl}/api/mcp/mcp`],
    [`/api/mcp/o/{org}/sse`, () => `${h.baseUrl}/api/mcp/o/${h.orgId}/mcp`],
  ] as const)(
    '%s answers 405 with a JSON body naming the Streamable HTTP URL, signed in or not',
    async (path, expected) => {
      for (const token of [h.users.owner.token, null]) {
        const response = await raw({ path: path.replace('{org}', h.orgId), token });
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe('GET');
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(response.json).toMatchObject({ error: 'method_not_allowed', streamableHttpUrl: expected() });
        expect(response.json!.message).toContain(expected());
      }
    },
  );
});

describe('request bodies and methods, answered before MCP is spoken', () => {
  /** A POST with a body sent as it is (not as JSON of a value), so that it can be malformed. */
  async function post(body: string, headers: Record<string, string> = {}) {
    const response = await fetch(new URL('/api/mcp/mcp', h.baseUrl), {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${h.users.owner.token}`,
        'X-Organization-Id': h.orgId,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        ...headers,
      },
      body,
    });
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  }

  it('a body over the limit is 413 payload_too_large, with the limit and the size', async () => {
    const limit = h.services.config.limits.maxDocumentBytes + 64 * 1024;
    const body = JSON.stringify({ ...INITIALIZE, params: { ...INITIALIZE.params, padding: 'x'.repeat(limit) } });
    const response = await post(body);
    expect(response.status).toBe(413);
    expect(response.json).toMatchObject({ error: 'payload_too_large' });
    expect(response.json.message).toBe(
      `the request body is ${Buffer.byteLength(body)} bytes; the limit is ${limit} bytes`,
    );
  });

  it('a body that is not JSON is 400 with the JSON-RPC parse error', async () => {
    const response = await post('{"jsonrpc": "2.0", "method": ');
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: the body is not JSON' },
      id: null,
    });
  });

  it('a charset the server cannot decode is 415, with the parser saying which', async () => {
    const response = await post(JSON.stringify(INITIALIZE), { 'Content-Type': 'application/json; charset=klingon' });
    expect(response.status).toBe(415);
    expect(response.json.message).toMatch(/klingon/i);
  });

  it.each([
    ['PUT', '/api/mcp/mcp', 'GET, POST, DELETE'],
    ['DELETE', '/api/mcp/o/{org}/sse', 'GET, POST'],
    ['GET', '/api/mcp/messages', 'POST'],
  ])('%s %s is 405 naming the methods it answers', async (method, path, allow) => {
    const response = await fetch(new URL(path.replace('{org}', h.orgId), h.baseUrl), {
      method,
      headers: { Authorization: `Bearer ${h.users.owner.token}`, 'X-Organization-Id': h.orgId },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect(await response.json()).toMatchObject({ error: 'method_not_allowed' });
  });
});
