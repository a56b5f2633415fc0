import net from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { connect } from '../mcp/clients.js';

const HEADERS_TIMEOUT_MS = 2_000;
const REQUEST_TIMEOUT_MS = 3_000;
const MAX_PER_ADDRESS = 5;
/** Node looks for requests over their time every 250 ms; the rest is a loaded machine's slack. */
const SLACK_MS = 1_500;

/** A raw TCP client that sends `payload` and records everything until the server closes. */
class RawClient {
  readonly socket: net.Socket;
  readonly opened = Date.now();
  received = '';
  readonly closed: Promise<number>;

  constructor(port: number, payload: string, localAddress = '127.0.0.1') {
    this.socket = net.connect({ host: '127.0.0.1', port, localAddress }, () => {
      if (payload) this.socket.write(payload);
    });
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => (this.received += chunk));
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve(Date.now() - this.opened)));
  }

  /** Milliseconds from connecting until the server closed, or undefined if still open after `waitMs`. */
  async closedWithin(waitMs: number): Promise<number | undefined> {
    return Promise.race([
      this.closed,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), waitMs)),
    ]);
  }
}

const pktLine = (text: string): string => `${(text.length + 4).toString(16).padStart(4, '0')}${text}`;

describe('slow and idle clients cannot hold the service', () => {
  let harness: Harness;
  let port: number;
  const sse: Client[] = [];

  beforeAll(async () => {
    harness = await startHarness({
      env: {
        SPECBASE_HEADERS_TIMEOUT_SECONDS: String(HEADERS_TIMEOUT_MS / 1000),
        SPECBASE_REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_MS / 1000),
        SPECBASE_MAX_CONNECTIONS_PER_ADDRESS: String(MAX_PER_ADDRESS),
      },
    });
    port = Number(new URL(harness.baseUrl).port);
  });

  afterAll(async () => {
    await Promise.all(sse.map((client) => client.close()));
    await harness?.close();
  });

  it('closes a POST that declares a body and sends none, on every kind of route, within the request timeout', async () => {
    const routes = ['/token', '/api/mcp/mcp', '/signout', `/git/${harness.orgId}.git/git-upload-pack`];
    // From an address of their own, so that no other test's connection counts against the cap here.
    const clients = routes.map(
      (path) =>
        new RawClient(
          port,
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
          '127.0.0.3',
        ),
    );
    const silent = new RawClient(port, '', '127.0.0.3');
    for (const client of [...clients, silent]) {
      const after = await client.closedWithin(REQUEST_TIMEOUT_MS + SLACK_MS);
      expect(after, client.received).toBeDefined();
    }
    expect(await silent.closed).toBeLessThan(HEADERS_TIMEOUT_MS + SLACK_MS);
    expect(silent.received).toContain('408');
  });

  it('refuses connections from one address beyond the cap, while /healthz answers others', async () => {
    const idle = Array.from({ length: MAX_PER_ADDRESS }, () => new RawClient(port, '', '127.0.0.2'));
    await Promise.all(idle.map((client) => new Promise((resolve) => client.socket.once('connect', resolve))));
    const refused = new RawClient(port, '', '127.0.0.2');
    expect(await refused.closedWithin(1_000)).toBeDefined();
    expect(refused.received).toMatch(/^HTTP\/1\.1 429 /);
    expect(refused.received).toContain('too many open connections from your address');

    const health = await fetch(`${harness.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    for (const client of idle) client.socket.destroy();
  });

  it('keeps authenticated MCP SSE streams open past the request timeout, and does not count them against the cap', async () => {
    // One after another: a connection counts against the cap until its first request is authenticated.
    for (let i = 0; i < MAX_PER_ADDRESS + 2; i++) sse.push(await connect(harness, 'editor', 'sse'));
    await new Promise((resolve) => setTimeout(resolve, REQUEST_TIMEOUT_MS + SLACK_MS));
    for (const client of sse) {
      const { tools } = await client.listTools();
      expect(tools.length).toBe(31);
    }
  });

  it('closes a refused git-upload-pack request at once instead of waiting for its body', async () => {
    const refused = new RawClient(
      port,
      `POST /git/${harness.orgId}.git/git-upload-pack HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-git-upload-pack-request\r\nContent-Length: 100000\r\n\r\n0000`,
    );
    expect(await refused.closedWithin(1_000)).toBeDefined();
    expect(refused.received).toMatch(/^HTTP\/1\.1 401 /);
  });

  it('answers an authenticated git-upload-pack and closes the connection when git leaves the body unread', async () => {
    const request = `${pktLine('command=ls-refs\n')}0001${pktLine('ref-prefix refs/heads/\n')}0000`;
    const auth = Buffer.from(`token:${harness.users.owner.token}`).toString('base64');
    const client = new RawClient(
      port,
      [
        `POST /git/${harness.orgId}.git/git-upload-pack HTTP/1.1`,
        'Host: 127.0.0.1',
        `Authorization: Basic ${auth}`,
        'Git-Protocol: version=2',
        'Content-Type: application/x-git-upload-pack-request',
        `Content-Length: ${request.length + 1000}`,
        '',
        request,
      ].join('\r\n'),
    );
    const after = await client.closedWithin(REQUEST_TIMEOUT_MS + SLACK_MS);
    expect(after).toBeDefined();
    expect(after!).toBeLessThan(REQUEST_TIMEOUT_MS);
    expect(client.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(client.received).toContain('refs/heads/main');
  });
});
