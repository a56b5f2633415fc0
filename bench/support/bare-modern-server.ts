/**
 * The baseline of the 2026-07-28 era, in its own process: the v2 SDK alone (McpServer from
 * `@modelcontextprotocol/server`, built per request by `createMcpHandler` as that SDK serves the
 * revision) with the same `echo` and `document` tools as bare-server.ts, on node's http as
 * Specbase's MCP endpoints are. Specbase's modern era is measured against this, its legacy era
 * against the 1.x bare server: each era against a bare server of its own SDK line.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { serveProbeRequests } from './child-ipc.js';

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'bare-modern', version: '1.0.0' });
    server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
      content: [{ type: 'text', text }],
    }));
    server.registerTool(
      'document',
      { inputSchema: z.object({ chars: z.number().int().min(0) }), outputSchema: z.object({ content: z.string() }) },
      async ({ chars }) => {
        const text = 'The shopper can retry the express refund checkout. '
          .repeat(Math.ceil(chars / 51))
          .slice(0, chars);
        return { content: [{ type: 'text', text }], structuredContent: { content: text } };
      },
    );
    return server;
  },
  { legacy: 'reject' },
);

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  return headers;
}

async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.url !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown) : undefined;
  const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method ?? 'POST', headers: headersOf(req) });
  const response = await handler.fetch(request, body === undefined ? {} : { parsedBody: body });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const answer = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, { ...headers, 'content-length': String(answer.length) }).end(answer);
}

const server = http.createServer((req, res) => void serve(req, res).catch(() => res.writeHead(500).end()));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
serveProbeRequests(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);
process.send!({ kind: 'ready', port: (server.address() as AddressInfo).port });
