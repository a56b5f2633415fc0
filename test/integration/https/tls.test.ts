import { rm } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
// undici (a dev dependency through mcp-remote and the conformance suite) is the fetch that takes a per-request TLS agent.
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { selfSignedCertificate, type SelfSigned } from './certificate.js';

let cert: SelfSigned;
let h: Harness;
let agent: Agent;
let trustingFetch: FetchLike;
beforeAll(async () => {
  cert = await selfSignedCertificate();
  h = await startHarness({ env: { SPECBASE_TLS_CERT: cert.certFile, SPECBASE_TLS_KEY: cert.keyFile } });
  agent = new Agent({ connect: { ca: cert.pem } });
  trustingFetch = ((url, init) => undiciFetch(url, { ...(init as object), dispatcher: agent })) as FetchLike;
});
afterAll(async () => {
  await h?.close();
  await agent?.close();
  if (cert) await rm(cert.dir, { recursive: true, force: true });
});

function transport(kind: 'streamable' | 'sse'): Transport {
  const headers = { 'X-Organization-Id': h.orgId, Authorization: `Bearer ${h.users.owner.token}` };
  if (kind === 'streamable') {
    return new StreamableHTTPClientTransport(new URL('/api/mcp/mcp', h.baseUrl), {
      requestInit: { headers },
      fetch: trustingFetch,
    });
  }
  return new SSEClientTransport(new URL('/api/mcp/sse', h.baseUrl), {
    requestInit: { headers },
    fetch: trustingFetch,
    eventSourceInit: {
      fetch: (url, init) => trustingFetch(url, { ...init, headers: { ...(init?.headers as object), ...headers } }),
    },
  });
}

describe('HTTPS with SPECBASE_TLS_CERT and SPECBASE_TLS_KEY', () => {
  it('serves under an https base URL', () => {
    expect(h.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it.each(['streamable', 'sse'] as const)(
    'the SDK client trusting the certificate lists tools and calls one over %s',
    async (kind) => {
      const client = new Client({ name: 'tls-test-client', version: '1.0.0' });
      await client.connect(transport(kind));
      try {
        const { tools } = await client.listTools();
        expect(tools).toHaveLength(31);
        expect(tools.every((tool) => tool.name.startsWith('specbase_'))).toBe(true);
        const result = (await client.callTool({
          name: 'specbase_search',
          arguments: { query: 'delivery slot' },
        })) as CallToolResult;
        expect(result.isError).toBeFalsy();
        const { results } = result.structuredContent as { results: { url: string }[] };
        expect(results.length).toBeGreaterThan(0);
        expect(results[0]!.url.startsWith(`${h.baseUrl}/o/${h.orgId}/a/`)).toBe(true);
      } finally {
        await client.close();
      }
    },
  );

  it('answers /healthz over TLS', async () => {
    const response = await trustingFetch(new URL('/healthz', h.baseUrl));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      droppedLogLines: 0,
      droppedAuditRows: 0,
      heldAuditRows: 0,
      openOrganizations: expect.any(Number),
      queuedWebhookEvents: 0,
      droppedWebhookEvents: 0,
    });
  });

  it('refuses plain http on the TLS port', async () => {
    const plain = h.baseUrl.replace(/^https:/, 'http:');
    await expect(fetch(`${plain}/healthz`)).rejects.toThrow();
  });

  it('a client that does not trust the certificate cannot connect', async () => {
    await expect(fetch(`${h.baseUrl}/healthz`)).rejects.toThrow();
    const client = new Client({ name: 'untrusting-client', version: '1.0.0' });
    const headers = { 'X-Organization-Id': h.orgId, Authorization: `Bearer ${h.users.owner.token}` };
    await expect(
      client.connect(
        new StreamableHTTPClientTransport(new URL('/api/mcp/mcp', h.baseUrl), { requestInit: { headers } }),
      ),
    ).rejects.toThrow();
  });
});
