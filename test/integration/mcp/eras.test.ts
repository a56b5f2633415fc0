import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/ids.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { call, connect } from './clients.js';
import { callModern, callModernError, connectModern } from './modern-clients.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('the 2026-07-28 era on the same URLs', () => {
  it.each([
    ['pinned', false],
    ['pinned', true],
    ['auto', false],
    ['auto', true],
  ] as const)('serves a v2 client (%s, organization in path: %s) on the modern era', async (negotiation, orgInPath) => {
    const client = await connectModern(h, 'owner', negotiation, { orgInPath });
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('specbase_search');
      const product = await callModern(client, 'specbase_read_product');
      expect(product.data.id).toBe(h.productId);
    } finally {
      await client.close();
    }
  });

  it('refuses what the caller may not do with the same teaching error as the 2025 era', async () => {
    const modern = await connectModern(h, 'viewer');
    const legacy = await connect(h, 'viewer');
    try {
      const args = { productId: h.productId, title: `Not allowed ${newId()}` };
      const modernError = await callModernError(modern, 'specbase_create_capability', args);
      const legacyResult = await legacy.callTool({ name: 'specbase_create_capability', arguments: args });
      expect(legacyResult.isError).toBe(true);
      expect(modernError).toBe((legacyResult.content as { text: string }[])[0]!.text);
      expect(await callModernError(modern, 'specbase_read_feature', { featureId: newId() })).toBe('artifact not found');
    } finally {
      await Promise.all([modern.close(), legacy.close()]);
    }
  });

  it('names an unknown tool in the same JSON-RPC error in both eras', async () => {
    const modern = await connectModern(h, 'owner');
    const legacy = await connect(h, 'owner');
    try {
      const expected = 'unknown tool "specbase_nope"; tools/list names this server\'s tools';
      const modernError = await modern
        .callTool({ name: 'specbase_nope', arguments: {} })
        .catch((error: { code?: number; message: string }) => error);
      const legacyError = await legacy
        .callTool({ name: 'specbase_nope', arguments: {} })
        .catch((error: { code?: number; message: string }) => error);
      expect(modernError).toMatchObject({ code: -32602 });
      expect(legacyError).toMatchObject({ code: -32602 });
      expect((modernError as Error).message).toContain(expected);
      expect((legacyError as Error).message).toContain(expected);
    } finally {
      await Promise.all([modern.close(), legacy.close()]);
    }
  });

  it('records tool calls of both eras in the audit log, with the client name', async () => {
    const modern = await connectModern(h, 'owner');
    try {
      await callModern(modern, 'specbase_search', { query: 'audit era probe' });
    } finally {
      await modern.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const entries = await h.services.control.audit.list({ orgId: h.orgId, limit: 20 });
    const row = entries.find(
      (entry) => entry.action === 'specbase_search' && entry.client === 'specbase-modern-test-client',
    );
    expect(row).toBeDefined();
  });
});

describe('the 2025 era keeps its sessionful wiring', () => {
  it.each(['streamable', 'sse', 'streamable-path', 'sse-path'] as const)(
    'serves a 1.x client over %s',
    async (kind) => {
      const client = await connect(h, 'owner', kind);
      try {
        expect((await call(client, 'specbase_read_product')).data.id).toBe(h.productId);
      } finally {
        await client.close();
      }
    },
  );
});

describe('the gate before either era', () => {
  it.each(['pinned', 'auto'] as const)(
    'answers 401 with the challenge to a v2 client (%s) without a valid token',
    async (negotiation) => {
      await expect(connectModern(h, 'owner', negotiation, { token: 'sbp_not-a-real-token' })).rejects.toThrow(
        /401|nauthorized/,
      );
      const response = await fetch(new URL('/api/mcp/mcp', h.baseUrl), {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'X-Organization-Id': h.orgId,
        },
        body: JSON.stringify(discoverRequest()),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(
        `Bearer resource_metadata="${h.baseUrl}/.well-known/oauth-protected-resource/api/mcp/mcp"`,
      );
    },
  );

  it('answers an unknown organization the same in both eras', async () => {
    const unknownOrg = newId();
    const answers = [];
    for (const body of [discoverRequest(), initializeRequest()]) {
      const response = await fetch(new URL(`/api/mcp/o/${unknownOrg}/mcp`, h.baseUrl), {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          Authorization: `Bearer ${h.users.owner.token}`,
          ...(body.method === 'server/discover'
            ? { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'server/discover' }
            : {}),
        },
        body: JSON.stringify(body),
      });
      answers.push({ status: response.status, body: await response.json() });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]!.status).toBe(403);
    await expect(connectModern(h, 'owner', 'pinned', { path: `/api/mcp/o/${unknownOrg}/mcp` })).rejects.toThrow(
      /403|organization/i,
    );
  });
});

function discoverRequest() {
  return {
    jsonrpc: '2.0',
    id: 1,
    method: 'server/discover',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'raw-http', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  };
}

function initializeRequest() {
  return {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-http', version: '1' } },
  };
}
