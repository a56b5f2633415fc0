import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { gatherAnswer } from '../../../src/mcp/one-write.js';

const GATHER_MS = 500;
let server: http.Server | undefined;
afterEach(async () => {
  server?.close();
  server = undefined;
});

/**
 * An answer written as a stream pipes it: each write that finds the buffer full waits for
 * 'drain' before the next. Gathered on a corked socket, that drain must not wait for the
 * gathering time to end.
 */
it('lets an answer larger than the buffer leave as its writer waits for drain, not after the gathering time', async () => {
  const chunk = 'x'.repeat(40_000);
  server = http.createServer((req, res) => {
    gatherAnswer(res, GATHER_MS);
    res.writeHead(200, { 'content-type': 'text/plain' });
    void (async () => {
      for (let i = 0; i < 3; i++) if (!res.write(chunk)) await once(res, 'drain');
      res.end();
    })();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const began = performance.now();
  const text = await new Promise<string>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (data: Buffer) => chunks.push(data));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      })
      .on('error', reject);
  });
  expect(text).toBe(chunk.repeat(3));
  expect(performance.now() - began).toBeLessThan(GATHER_MS / 2);
});
