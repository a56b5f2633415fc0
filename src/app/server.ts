import { readFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { ConfigError, type Config } from '../config/index.js';
import { capConnectionsPerAddress } from './connection-cap.js';

export type NodeServer = http.Server | https.Server;

const IDLE_SWEEP_MS = 50;

/** How often node looks for requests over their timeouts: often enough for timeouts of a second. */
const TIMEOUT_CHECK_MS = 250;

/**
 * An HTTP or, with a certificate and key configured, HTTPS server that is already listening.
 * A request must arrive whole within the configured timeouts (headers, then headers and body;
 * node answers 408 and closes), an idle keep-alive connection is closed, and one address may
 * hold only so many connections nobody has authenticated. Answers that stream for hours (MCP
 * and SSE streams, clones) are not cut: node's request timeouts end once a request is received.
 */
export async function listen(
  config: Pick<Config, 'port' | 'host' | 'tls' | 'connections'>,
): Promise<{ server: NodeServer; port: number }> {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, maxPerAddress } = config.connections;
  const timeouts: http.ServerOptions = {
    headersTimeout: headersTimeoutMs,
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, headersTimeoutMs),
  };
  const server = config.tls
    ? https.createServer({
        ...timeouts,
        cert: await readFile(config.tls.certFile),
        key: await readFile(config.tls.keyFile),
      })
    : http.createServer(timeouts);
  capConnectionsPerAddress(server, maxPerAddress);
  await new Promise<void>((resolve, reject) => {
    const refuse = (error: NodeJS.ErrnoException) => reject(listenFailure(error, config));
    server.once('error', refuse);
    server.listen(config.port, config.host, () => {
      server.off('error', refuse);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port };
}

/** A port that cannot be had is the operator's to fix: said in a sentence, not a stack trace. */
function listenFailure(error: NodeJS.ErrnoException, { port, host }: Pick<Config, 'port' | 'host'>): Error {
  const where = `port ${port} on ${host}`;
  if (error.code === 'EADDRINUSE') {
    return new ConfigError(
      `${where} is already in use by another process: stop it, or start Specbase on another port with PORT=<port>`,
    );
  }
  if (error.code === 'EACCES')
    return new ConfigError(`${where} needs privileges this process lacks: choose a port above 1023 with PORT=<port>`);
  if (error.code === 'EADDRNOTAVAIL')
    return new ConfigError(`${host} is not an address of this machine: set HOST to one of its addresses`);
  return error;
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
