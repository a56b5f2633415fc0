import net from 'node:net';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyToolDef } from '../../../src/tools/index.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { initialize, type McpSession } from '../startup/rpc.js';
import { mcpUrl } from './clients.js';

/** A fixture tool answering after `ms`: a timer stands for the I/O a real call waits on. */
const answerAfter: AnyToolDef = {
  name: 'answer_after',
  title: 'Test fixture: answers after a delay',
  kind: 'read',
  description: 'Waits the given milliseconds, then answers.',
  input: z.object({ ms: z.number() }),
  output: z.object({ waitedMs: z.number() }),
  async run(_ctx, args) {
    const { ms } = args as { ms: number };
    await new Promise((resolve) => setTimeout(resolve, ms));
    return { structured: { waitedMs: ms }, text: `waited ${ms} ms` };
  },
};

/** Wider than the service's default, so that a slow machine does not split a 5 ms answer. */
const GATHER_MS = 500;

let h: Harness;
let session: McpSession;
beforeAll(async () => {
  h = await startHarness({ mcp: { tools: [answerAfter], answerGatherMs: GATHER_MS } });
  const headers = { Authorization: `Bearer ${h.users.owner.token}`, 'X-Organization-Id': h.orgId };
  session = await initialize(mcpUrl(h, 'streamable').href, headers, '2025-11-25');
});
afterAll(async () => {
  await h?.close();
});

interface Arrival {
  readonly atMs: number;
  readonly text: string;
}

/** A tools/call over a plain socket: every read the client makes of the answer, as it came. */
function callOverSocket(name: string, args: Record<string, unknown>): Promise<Arrival[]> {
  const url = new URL(session.url);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } });
  const headers = {
    ...session.headers,
    Host: url.host,
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'Content-Length': String(Buffer.byteLength(body)),
  };
  const head = [
    `POST ${url.pathname} HTTP/1.1`,
    ...Object.entries(headers).map(([key, value]) => `${key}: ${value}`),
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    const arrivals: Arrival[] = [];
    const socket = net.connect(Number(url.port), url.hostname);
    let sentAt = 0;
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      sentAt = performance.now();
      socket.write(`${head}\r\n\r\n${body}`);
    });
    let received = '';
    socket.on('data', (text: string) => {
      arrivals.push({ atMs: performance.now() - sentAt, text });
      received += text;
      // The end of a chunked body: the connection itself is kept alive (the transport says so).
      if (received.endsWith('\r\n0\r\n\r\n')) {
        socket.destroy();
        resolve(arrivals);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`the connection closed before the answer ended: ${received}`)));
  });
}

describe('a tool call answer on the wire', () => {
  it('answered within the gathering time, it arrives in one piece: headers, priming event, result, end of stream', async () => {
    const arrivals = await callOverSocket('answer_after', { ms: 5 });
    const whole = arrivals.map((a) => a.text).join('');
    expect(whole).toMatch(/^HTTP\/1\.1 200 /);
    expect(whole).toMatch(/\r\nid: [^\n]+\nretry: \d+\ndata: \n\n/);
    expect(whole).toContain('"waitedMs":5');
    expect(whole).toMatch(/\r\n0\r\n\r\n$/);
    expect(arrivals).toHaveLength(1);
  });

  it('answered later, its priming event still comes within the gathering time, so a broken stream can resume', async () => {
    const waitMs = 4 * GATHER_MS;
    const arrivals = await callOverSocket('answer_after', { ms: waitMs });
    expect(arrivals.length).toBeGreaterThan(1);
    const first = arrivals[0]!;
    expect(first.text).toMatch(/^HTTP\/1\.1 200 /);
    expect(first.text).toMatch(/\r\nid: [^\n]+\nretry: \d+\ndata: \n\n/);
    expect(first.text).not.toContain('waitedMs');
    expect(first.atMs).toBeLessThan(waitMs / 2);
    const rest = arrivals
      .slice(1)
      .map((a) => a.text)
      .join('');
    expect(rest).toContain(`"waitedMs":${waitMs}`);
    expect(arrivals.at(-1)!.atMs).toBeGreaterThanOrEqual(waitMs);
  });
});
