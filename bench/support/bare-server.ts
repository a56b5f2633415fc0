/**
 * The baseline server in its own process: the MCP SDK alone (McpServer, stateful Streamable
 * HTTP over express, as the SDK's examples serve it) with an `echo` tool that returns what it
 * is sent, and a `document` tool that answers `chars` characters as text and again as
 * structured content, the shape of a Specbase read, so that a read can also be set against an
 * answer of its size. With BARE_ROUTING=node the same handlers run on node's http alone, as
 * Specbase's MCP endpoints do: a second baseline, without express's cost.
 */
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import express from 'express';
import { z } from 'zod';
import { serveProbeRequests } from './child-ipc.js';

const transports = new Map<string, StreamableHTTPServerTransport>();

async function post(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
  const sessionId = req.headers['mcp-session-id'];
  let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
  if (!transport && isInitializeRequest(body)) {
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
    server.registerTool(
      'document',
      { inputSchema: { chars: z.number().int().min(0) }, outputSchema: { content: z.string() } },
      async ({ chars }) => {
        const text = 'The shopper can retry the express refund checkout. '
          .repeat(Math.ceil(chars / 51))
          .slice(0, chars);
        return { content: [{ type: 'text', text }], structuredContent: { content: text } };
      },
    );
    await server.connect(created);
    transport = created;
  }
  if (!transport) {
    res.writeHead(404).end();
    return;
  }
  await transport.handleRequest(req, res, body);
}

async function end(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const sessionId = req.headers['mcp-session-id'];
  const transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
  if (transport) {
    transports.delete(sessionId as string);
    await transport.close();
  }
  res.writeHead(200).end();
}

const json = express.json({ limit: '4mb' });
const withBody = (req: IncomingMessage, res: ServerResponse) =>
  json(req, res, () => void post(req, res, (req as IncomingMessage & { body?: unknown }).body));

function viaExpress(): express.Express {
  const app = express();
  app.use(json);
  app.post('/mcp', (req, res) => post(req, res, req.body));
  app.delete('/mcp', (req, res) => end(req, res));
  return app;
}

function viaNode(req: IncomingMessage, res: ServerResponse): void {
  if (req.url !== '/mcp') res.writeHead(404).end();
  else if (req.method === 'POST') withBody(req, res);
  else if (req.method === 'DELETE') void end(req, res);
  else res.writeHead(405).end();
}

const server = http.createServer(process.env.BARE_ROUTING === 'node' ? viaNode : viaExpress());
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
serveProbeRequests(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);
process.send!({ kind: 'ready', port: (server.address() as AddressInfo).port });
