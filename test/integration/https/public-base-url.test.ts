import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';

/** Behind a TLS-terminating proxy: the service listens on plain http, the world sees PUBLIC. */
const PUBLIC = 'https://specs.example.com';

let h: Harness;
let local: string;
beforeAll(async () => {
  h = await startHarness({
    baseUrl: (port) => {
      local = `http://127.0.0.1:${port}`;
      return PUBLIC;
    },
  });
});
afterAll(async () => {
  await h?.close();
});

const headers = () => ({ 'X-Organization-Id': h.orgId, Authorization: `Bearer ${h.users.owner.token}` });

async function connectLocally(): Promise<Client> {
  const client = new Client({ name: 'proxy-test-client', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/api/mcp/mcp', local), { requestInit: { headers: headers() } }),
  );
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Record<string, any>;
}

/** Every string in a JSON document that is an absolute http(s) URL. */
function urlsIn(value: unknown): string[] {
  if (typeof value === 'string') return /^https?:\/\//.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(urlsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(urlsIn);
  return [];
}

const artifactUrl = (id: string) => `${PUBLIC}/o/${h.orgId}/a/${id}`;

describe('SPECBASE_BASE_URL behind a TLS-terminating proxy', () => {
  it('tool results carry public https URLs: search, read, list, create, edit', async () => {
    const client = await connectLocally();
    try {
      const search = await call(client, 'specbase_search', { query: 'delivery slot' });
      expect(search.results.length).toBeGreaterThan(0);
      for (const result of search.results as { id: string; url: string }[])
        expect(result.url).toBe(artifactUrl(result.id));

      const product = await call(client, 'specbase_read_product');
      expect(product.url).toBe(artifactUrl(product.id));

      const capabilities = await call(client, 'specbase_list_capabilities', { productId: product.id });
      expect(capabilities.items.length).toBeGreaterThan(0);
      for (const item of capabilities.items as { id: string; url: string }[])
        expect(item.url).toBe(artifactUrl(item.id));

      const created = await call(client, 'specbase_create_feature', {
        capabilityId: capabilities.items[0].id,
        title: 'Proxy check',
      });
      expect(created.url).toBe(artifactUrl(created.id));
      const patch = [
        '--- a/feature.md',
        '+++ b/feature.md',
        '@@ -1 +1,3 @@',
        ` ${(created.content as string).split('\n')[0]}`,
        '+',
        '+Served through a proxy.',
        '',
      ].join('\n');
      const edited = await call(client, 'specbase_edit_feature', { featureId: created.id, patch });
      expect(edited.url).toBe(artifactUrl(created.id));

      const everyUrl = urlsIn([search, product, capabilities, created, edited]);
      expect(everyUrl.length).toBeGreaterThan(3);
      expect(everyUrl.filter((url) => !url.startsWith(`${PUBLIC}/`))).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it.each([
    ['POST', '/api/mcp/mcp'],
    ['GET', '/api/mcp/sse'],
    ['POST', '/api/mcp/o/{org}/mcp'],
    ['GET', '/api/mcp/o/{org}/sse'],
  ])('the 401 challenge of %s %s points at public resource metadata', async (method, route) => {
    const path = route.replace('{org}', h.orgId);
    const response = await fetch(`${local}${path}`, { method });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${PUBLIC}/.well-known/oauth-protected-resource${path}"`,
    );
  });

  it('the challenge followed to its document names the public resource and authorization server', async () => {
    const challenge = (await fetch(`${local}/api/mcp/mcp`, { method: 'POST' })).headers.get('www-authenticate')!;
    const metadataUrl = new URL(/resource_metadata="([^"]+)"/.exec(challenge)![1]!);
    const metadata = (await (await fetch(`${local}${metadataUrl.pathname}`)).json()) as Record<string, any>;
    expect(metadata.resource).toBe(`${PUBLIC}/api/mcp/mcp`);
    expect(metadata.authorization_servers).toEqual([`${PUBLIC}/`]);
  });

  it.each(['/api/mcp/mcp', '/api/mcp/sse', '/api/mcp/o/{org}/mcp', '/api/mcp/o/{org}/sse'])(
    'protected resource metadata of %s uses only public URLs',
    async (route) => {
      const path = route.replace('{org}', h.orgId);
      const response = await fetch(`${local}/.well-known/oauth-protected-resource${path}`);
      expect(response.status).toBe(200);
      const metadata = (await response.json()) as Record<string, any>;
      expect(metadata.resource).toBe(`${PUBLIC}${path}`);
      expect(urlsIn(metadata).filter((url) => !url.startsWith(`${PUBLIC}/`))).toEqual([]);
    },
  );

  it('OAuth authorization server metadata uses only public URLs', async () => {
    const response = await fetch(`${local}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    const metadata = (await response.json()) as Record<string, any>;
    expect(metadata.issuer).toBe(`${PUBLIC}/`);
    for (const endpoint of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint']) {
      expect(metadata[endpoint]).toMatch(new RegExp(`^${PUBLIC}/`));
    }
    expect(urlsIn(metadata).filter((url) => !url.startsWith(`${PUBLIC}/`))).toEqual([]);
  });

  it.each([
    [
      'a proxy that forwards host and scheme',
      { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'specs.example.com' },
    ],
    ['a proxy that forwards nothing', {}],
    ['a client that forges the forwarded host', { 'X-Forwarded-Proto': 'http', 'X-Forwarded-Host': 'evil.example' }],
  ])(
    'the embedded identity provider, reached through %s, uses only the configured public URLs',
    async (_how, forwarded) => {
      const response = await fetch(`${local}/oidc/.well-known/openid-configuration`, { headers: forwarded });
      expect(response.status).toBe(200);
      const metadata = (await response.json()) as Record<string, any>;
      expect(metadata.issuer).toBe(`${PUBLIC}/oidc`);
      expect(urlsIn(metadata).filter((url) => !url.startsWith(`${PUBLIC}/`))).toEqual([]);
    },
  );

  it('the legacy SSE transport works through the local address with a public base URL', async () => {
    const client = new Client({ name: 'proxy-sse-client', version: '1.0.0' });
    const h2 = headers();
    await client.connect(
      new SSEClientTransport(new URL('/api/mcp/sse', local), {
        requestInit: { headers: h2 },
        eventSourceInit: {
          fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as object), ...h2 } }),
        },
      }),
    );
    try {
      const product = await call(client, 'specbase_read_product');
      expect(product.url).toBe(artifactUrl(product.id));
    } finally {
      await client.close();
    }
  });
});
