import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Forwarder {
  /** The forwarder's own URL for `targetPath`, e.g. `http://127.0.0.1:PORT/api/mcp/mcp`. */
  readonly url: string;
  /** The forwarder's origin, known before its target: what the service is told is its public address. */
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * A test-only reverse proxy on 127.0.0.1 that adds `headers` to every request and forwards it
 * to `target`, streaming both bodies (SSE included). The conformance suite cannot set headers,
 * and our MCP routes require the organization header and a bearer token. `target` may be given
 * late (a function), so that the service can be started with the forwarder as its public address.
 */
export async function startHeaderForwarder(
  target: URL | (() => URL),
  headers: Record<string, string>,
): Promise<Forwarder> {
  const targetOf = typeof target === 'function' ? target : () => target;
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const target = targetOf();
    const upstream = http.request(
      {
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host, ...headers },
      },
      (upstreamRes) => {
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
        // Flush SSE headers at once: a client waits for them before it sends its next request.
        res.flushHeaders();
        upstreamRes.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    // A client closing its stream (an SSE GET, say) must close the upstream stream too.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    get url() {
      return new URL(targetOf().pathname, `http://127.0.0.1:${port}`).href;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
