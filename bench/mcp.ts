import type { AddressInfo } from 'node:net';
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import express from 'express';
import { z } from 'zod';
import { startHarness } from '../test/support/harness.js';

/**
 * Specbase's MCP surface against a bare SDK server with one trivial tool, same transport
 * (stateful Streamable HTTP over loopback), same 10 concurrent clients, same run.
 * Targets: read at least 0.8x and search at least 0.6x of the bare server's throughput.
 */
const CLIENTS = 10;
const WARMUP_MS = 1_000;
const MEASURE_MS = 5_000;

export interface Measurement {
  readonly name: string;
  readonly calls: number;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface McpBenchResult {
  readonly bare: Measurement;
  readonly read: Measurement;
  readonly search: Measurement;
  readonly readRatio: number;
  readonly searchRatio: number;
  readonly toolsListBytes: number;
  readonly conciseReadChars: number;
}

/** The baseline: what the SDK alone costs per call. */
async function startBareServer(): Promise<{ url: URL; close(): Promise<void> }> {
  const app = express();
  app.use(express.json());
  const transports = new Map<string, StreamableHTTPServerTransport>();
  app.post('/mcp', async (req, res) => {
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (!transport && isInitializeRequest(req.body)) {
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          transports.set(id, created);
        },
      });
      const server = new McpServer({ name: 'bare', version: '1.0.0' });
      server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
        content: [{ type: 'text', text }],
      }));
      await server.connect(created);
      transport = created;
    }
    if (!transport) {
      res.status(400).end();
      return;
    }
    await transport.handleRequest(req, res, req.body);
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

async function connectClients(url: URL, headers: Record<string, string>): Promise<Client[]> {
  return Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const client = new Client({ name: 'bench', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
      return client;
    }),
  );
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/** Every client calls in a closed loop; only calls started after the warm-up are counted. */
async function measure(name: string, clients: Client[], tool: string, args: Record<string, unknown>): Promise<Measurement> {
  const latencies: number[] = [];
  const start = performance.now();
  const measureFrom = start + WARMUP_MS;
  const end = measureFrom + MEASURE_MS;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < end) {
        const began = performance.now();
        const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
        if (result.isError) throw new Error(`${tool} failed: ${JSON.stringify(result.content)}`);
        if (began >= measureFrom) latencies.push(performance.now() - began);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    name,
    calls: latencies.length,
    perSecond: latencies.length / (MEASURE_MS / 1000),
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}

export async function runMcpBench(): Promise<McpBenchResult> {
  const harness = await startHarness();
  const bareServer = await startBareServer();
  try {
    const headers = { Authorization: `Bearer ${harness.users.owner.token}`, 'X-Organization-Id': harness.orgId };
    const specbase = await connectClients(new URL('/api/mcp/mcp', harness.baseUrl), headers);
    const bare = await connectClients(bareServer.url, {});
    const probe = specbase[0]!;
    const toolsListBytes = Buffer.byteLength(JSON.stringify(await probe.listTools()), 'utf8');
    const capability = (await probe.callTool({ name: 'specbase_list_capabilities', arguments: { productId: harness.productId } }))
      .structuredContent as { items: { id: string }[] };
    const features = (await probe.callTool({ name: 'specbase_list_features', arguments: { capabilityId: capability.items[0]!.id } }))
      .structuredContent as { items: { id: string }[] };
    const featureId = features.items[0]!.id;
    const concise = (await probe.callTool({ name: 'specbase_read_feature', arguments: { featureId } })) as CallToolResult;
    const conciseReadChars = (concise.content[0] as { text: string }).text.length;

    const bareResult = await measure('bare SDK echo', bare, 'echo', { text: 'hello' });
    const read = await measure('specbase_read_feature', specbase, 'specbase_read_feature', { featureId });
    const search = await measure('specbase_search', specbase, 'specbase_search', { query: 'delivery slot' });
    await Promise.all([...specbase, ...bare].map((client) => client.close()));
    return {
      bare: bareResult,
      read,
      search,
      readRatio: read.perSecond / bareResult.perSecond,
      searchRatio: search.perSecond / bareResult.perSecond,
      toolsListBytes,
      conciseReadChars,
    };
  } finally {
    await bareServer.close();
    await harness.close();
  }
}

export function formatMcpBench(r: McpBenchResult): string {
  const row = (m: Measurement) =>
    `  ${m.name.padEnd(24)} ${m.perSecond.toFixed(0).padStart(6)} calls/s   p50 ${m.p50Ms.toFixed(2)} ms   p99 ${m.p99Ms.toFixed(2)} ms`;
  return [
    `MCP over Streamable HTTP, ${CLIENTS} concurrent clients, ${MEASURE_MS / 1000} s each after ${WARMUP_MS / 1000} s warm-up`,
    row(r.bare),
    row(r.read),
    row(r.search),
    `  read/bare ${r.readRatio.toFixed(2)}x (target >= 0.8x)   search/bare ${r.searchRatio.toFixed(2)}x (target >= 0.6x)`,
    `  tools/list response ${r.toolsListBytes} bytes (target < 25 KB); concise read text ${r.conciseReadChars} chars (target about 600)`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(formatMcpBench(await runMcpBench()));
}
