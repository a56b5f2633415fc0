import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { Client as ModernClient } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../../src/tools/index.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { call, connect } from './clients.js';
import { callModern, connectModern } from './modern-clients.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const catalog = buildCatalog();
const READ_TOOLS = catalog.tools
  .filter((tool) => ['search', 'read', 'list'].includes(tool.kind))
  .map((tool) => tool.name)
  .sort();

type AnyClient = LegacyClient | ModernClient;

/** A connection in either era, opened as `how` says. */
type Opener = (headers?: Record<string, string>, path?: string) => Promise<AnyClient>;
const ERAS: readonly [string, Opener][] = [
  [
    '2025 Streamable HTTP',
    (headers, path) =>
      connect(h, 'owner', 'streamable-path', 'forms-test', {
        headers,
        ...(path ? { url: new URL(path, h.baseUrl) } : {}),
      }),
  ],
  [
    '2025 SSE',
    (headers, path) =>
      connect(h, 'owner', 'sse-path', 'forms-test', {
        headers,
        ...(path ? { url: new URL(path.replace(/mcp$/, 'sse'), h.baseUrl) } : {}),
      }),
  ],
  [
    '2026-07-28',
    (headers, path) =>
      connectModern(h, 'owner', 'pinned', {
        orgInPath: true,
        ...(headers ? { headers } : {}),
        ...(path ? { path } : {}),
      }),
  ],
];

async function toolNames(client: AnyClient): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}

async function refusal(client: AnyClient, name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { text: string }[];
  };
  expect(result.isError).toBe(true);
  return result.content[0]!.text;
}

describe.each(ERAS)('in the %s era', (_era, open) => {
  it('a read-only header leaves only the reading tools, and refuses the others with the reason', async () => {
    const client = await open({ 'X-Specbase-Readonly': 'true' });
    try {
      expect(await toolNames(client)).toEqual(READ_TOOLS);
      const text = await refusal(client, 'specbase_create_capability', { productId: h.productId, title: 'Refused' });
      expect(text).toContain('this connection is read-only: it was opened with X-Specbase-Readonly: true');
      const read = (await client.callTool({ name: 'specbase_read_product', arguments: {} })) as { isError?: boolean };
      expect(read.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('the /readonly URL form is read-only too', async () => {
    const client = await open(undefined, `/api/mcp/o/${h.orgId}/readonly/mcp`);
    try {
      expect(await toolNames(client)).toEqual(READ_TOOLS);
      expect(
        await refusal(client, 'specbase_edit_capability', { capabilityId: h.productId, patch: '', baseVersion: 'x' }),
      ).toContain('opened on a /readonly URL');
    } finally {
      await client.close();
    }
  });

  it('X-Specbase-Tools keeps the kinds and names asked for', async () => {
    const client = await open({ 'X-Specbase-Tools': 'search, specbase_read_product' });
    try {
      expect(await toolNames(client)).toEqual(['specbase_read_product', 'specbase_search']);
      expect(await refusal(client, 'specbase_list_capabilities', { productId: h.productId })).toContain(
        'specbase_list_capabilities is not among the tools this connection asked for (X-Specbase-Tools: search, specbase_read_product)',
      );
    } finally {
      await client.close();
    }
  });
});

describe('headers the server cannot read', () => {
  it.each([
    ['X-Specbase-Tools', 'search,delete', /neither a tool kind/],
    ['X-Specbase-Readonly', 'yes', /send true or false/],
    ['X-Specbase-Change-Request', 'soon', /send new .* or a change request's number/],
  ])('%s: %s is refused with 400 before MCP', async (name, value, message) => {
    const response = await fetch(new URL(`/api/mcp/o/${h.orgId}/mcp`, h.baseUrl), {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        Authorization: `Bearer ${h.users.owner.token}`,
        [name]: value,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(message);
  });
});

it('the read-only form serves its own protected resource metadata', async () => {
  const response = await fetch(
    new URL(`/.well-known/oauth-protected-resource/api/mcp/o/${h.orgId}/readonly/mcp`, h.baseUrl),
  );
  expect(response.status).toBe(200);
  expect(((await response.json()) as { resource: string }).resource).toBe(
    `${h.baseUrl}/api/mcp/o/${h.orgId}/readonly/mcp`,
  );
});

it('a filtered connection still reads', async () => {
  const modern = await connectModern(h, 'owner', 'pinned', { headers: { 'X-Specbase-Tools': 'read' } });
  const legacy = await connect(h, 'owner', 'streamable', 'forms-test', { headers: { 'X-Specbase-Tools': 'read' } });
  try {
    expect((await callModern(modern, 'specbase_read_product')).data.id).toBe(h.productId);
    expect((await call(legacy, 'specbase_read_product')).data.id).toBe(h.productId);
  } finally {
    await Promise.all([modern.close(), legacy.close()]);
  }
});

it('a token created read-only acts read-only in both eras, whatever the headers say', async () => {
  const { secret } = await h.services.control.tokens.create({
    userId: h.users.owner.user.id,
    name: 'read-only',
    readOnly: true,
  });
  const headers = { 'X-Specbase-Readonly': 'false' };
  const modern = await connectModern(h, 'owner', 'pinned', { token: secret, headers });
  const legacy = await connect(h, 'owner', 'streamable', 'forms-test', { token: secret, headers });
  try {
    for (const client of [modern, legacy] as AnyClient[]) {
      expect(await toolNames(client)).toEqual(READ_TOOLS);
      expect(await refusal(client, 'specbase_create_capability', { productId: h.productId, title: 'No' })).toContain(
        'its token or authorization was created read-only',
      );
    }
  } finally {
    await Promise.all([modern.close(), legacy.close()]);
  }
});
