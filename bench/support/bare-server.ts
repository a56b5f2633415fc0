/**
 * The baseline server in its own process: the MCP SDK alone (McpServer, stateful Streamable
 * HTTP over express, as Specbase uses it) with an `echo` tool that returns what it is sent, and
 * a `document` tool that answers `chars` characters as text and again as structured content,
 * the shape of a Specbase read, so that a read can also be set against an answer of its size.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import express from 'express';
import { z } from 'zod';
import { serveProbeRequests } from './child-ipc.js';

const app = express();
app.use(express.json({ limit: '4mb' }));
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
    server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
    server.registerTool('document', { inputSchema: { chars: z.number().int().min(0) }, outputSchema: { content: z.string() } }, async ({ chars }) => {
      const text = 'The shopper can retry the express refund checkout. '.repeat(Math.ceil(chars / 51)).slice(0, chars);
      return { content: [{ type: 'text', text }], structuredContent: { content: text } };
    });
    await server.connect(created);
    transport = created;
  }
  if (!transport) {
    res.status(404).end();
    return;
  }
  await transport.handleRequest(req, res, req.body);
});
app.delete('/mcp', async (req, res) => {
  const sessionId = req.headers['mcp-session-id'];
  const transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
  if (transport) {
    transports.delete(sessionId as string);
    await transport.close();
  }
  res.status(200).end();
});

const server = http.createServer(app);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
serveProbeRequests(() => new Promise<void>((resolve) => {
  server.closeAllConnections();
  server.close(() => resolve());
}));
process.send!({ kind: 'ready', port: (server.address() as AddressInfo).port });
