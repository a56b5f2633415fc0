import { readFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config/index.js';

export type NodeServer = http.Server | https.Server;

const IDLE_SWEEP_MS = 50;

/** An HTTP or, with a certificate and key configured, HTTPS server that is already listening. */
export async function listen(config: Pick<Config, 'port' | 'host' | 'tls'>): Promise<{ server: NodeServer; port: number }> {
  const server = config.tls
    ? https.createServer({ cert: await readFile(config.tls.certFile), key: await readFile(config.tls.keyFile) })
    : http.createServer();
  // SSE streams stay open for hours; only idle keep-alive sockets should time out.
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port };
}

/**
 * Stops accepting connections and lets in-flight requests (and so in-flight writes) finish;
 * long-lived streams are cut after `graceMs`.
 */
export async function shutdown(server: NodeServer, graceMs = 10_000): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // A keep-alive connection whose request finishes after close() would otherwise idle until
  // keepAliveTimeout before the server counts as closed.
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  timer.unref();
  await closed;
  clearInterval(sweep);
  clearTimeout(timer);
}
