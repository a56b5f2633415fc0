import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';

let h: Harness;
let configDir: string;
beforeAll(async () => {
  h = await startHarness();
  configDir = await mkdtemp(path.join(os.tmpdir(), 'specbase-mcp-remote-'));
});
afterAll(async () => {
  await h?.close();
  if (configDir) await rm(configDir, { recursive: true, force: true });
});

/** The local bridge a desktop client would start, exactly as the README tells users to. */
describe.each([
  ['SSE', '/api/mcp/sse', 'sse-only'],
  ['Streamable HTTP', '/api/mcp/mcp', 'http-only'],
  // What the README and banner recommend: the default strategy on the /mcp URL, no fallback.
  ['Streamable HTTP as recommended', '/api/mcp/mcp', undefined],
  // An old configuration with the SSE URL still works: the POST gets a 405, then SSE.
  ['SSE with the default strategy', '/api/mcp/sse', undefined],
] as const)('npx mcp-remote over %s', (label, route, strategy) => {
  it('bridges stdio to the server with the organization header and a token', async () => {
    const stderr: string[] = [];
    const transport = new StdioClientTransport({
      command: 'npx',
      args: [
        'mcp-remote',
        `${h.baseUrl}${route}`,
        '--header',
        `X-Organization-Id:${h.orgId}`,
        '--header',
        `Authorization:Bearer ${h.users.viewer.token}`,
        ...(strategy ? ['--transport', strategy] : []),
      ],
      cwd: process.cwd(),
      env: { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: configDir },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const client = new Client({ name: 'stdio-desktop-client', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(31);
      const result = (await client.callTool({ name: 'specbase_read_product', arguments: {} })) as CallToolResult;
      expect(result.isError, stderr.join('')).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ id: h.productId, type: 'product' });
      if (label === 'Streamable HTTP as recommended')
        expect(stderr.join('')).not.toMatch(/fallback|Recursively reconnecting/i);
      const audit = await h.services.control.audit.list({ userId: h.users.viewer.user.id, limit: 20 });
      expect(audit.find((e) => e.action === 'specbase_read_product' && e.outcome === 'ok')).toBeDefined();
    } finally {
      await client.close();
    }
  }, 90_000);
});
