import type http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { AUTHENTICATED_CONNECTION } from '../limits/index.js';

const RETRY_AFTER_SECONDS = 5;

/** The answer to a connection over the cap, written before the request is read. */
function tooManyConnections(max: number): string {
  const body = JSON.stringify({
    error: 'rate_limited',
    message: `too many open connections from your address (at most ${max} before signing in); close some or retry in ${RETRY_AFTER_SECONDS} seconds`,
  });
  return [
    'HTTP/1.1 429 Too Many Requests',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `Retry-After: ${RETRY_AFTER_SECONDS}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * At most `max` open connections per client address that no request has authenticated yet: one
 * more is answered 429 (over TLS, closed) before the server reads anything from it. A connection
 * leaves the count when it closes or once a request on it authenticates (a signed-in browser, a
 * valid bearer token), so long-lived MCP streams never count. Installed in front of the server's
 * own connection handlers, which never see a refused connection.
 */
export function capConnectionsPerAddress(server: http.Server | https.Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, Set<number>>();
  const release = (address: string, port: number): void => {
    const ports = open.get(address);
    if (!ports?.delete(port)) return;
    if (ports.size === 0) open.delete(address);
  };
  const tls = server instanceof https.Server;

  const handlers = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const port = socket.remotePort ?? 0;
    const ports = open.get(address) ?? new Set<number>();
    if (ports.size >= max) {
      // Flushed, then closed both ways: a client that never closes its side holds nothing.
      if (!tls) socket.write(tooManyConnections(max));
      socket.destroySoon();
      return;
    }
    ports.add(port);
    open.set(address, ports);
    socket.once('close', () => release(address, port));
    // Plain HTTP requests carry this very socket; over TLS, the TLS socket below.
    socket.once(AUTHENTICATED_CONNECTION, () => release(address, port));
    for (const handler of handlers) handler.call(server, socket);
  });
  if (tls) {
    server.on('secureConnection', (socket: TLSSocket) => {
      socket.once(AUTHENTICATED_CONNECTION, () => release(socket.remoteAddress ?? '', socket.remotePort ?? 0));
    });
  }
}
