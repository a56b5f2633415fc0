import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { SelfSigned } from '../https/certificate.js';

export interface Received {
  /** The endpoint's path under /hooks/. */
  readonly hook: string;
  readonly id: string;
  readonly timestamp: string;
  readonly type: string;
  readonly data: Record<string, any>;
}

/**
 * A webhook receiver over https with a self-signed certificate (over plain http on 127.0.0.1
 * without one, as a developer runs it under SPECBASE_WEBHOOK_ALLOW_LOCALHOST). Every request is verified with
 * the Standard Webhooks library's own `Webhook.verify` against the secret of its endpoint; one
 * that does not verify is kept in `rejected` and answered 401.
 */
export interface Receiver {
  readonly port: number;
  readonly received: Received[];
  readonly rejected: string[];
  url(hook: string): string;
  /** Secrets by hook: set after adding the endpoint. */
  readonly secrets: Map<string, string>;
  /** How a hook answers a verified delivery, instead of 204. */
  readonly answers: Map<string, { status: number; headers?: Record<string, string>; body?: string }>;
  /** Closes the port (connections refused) until `start`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  of(hook: string): Received[];
}

export async function startReceiver(cert?: SelfSigned): Promise<Receiver> {
  const key = cert ? await readFile(cert.keyFile) : undefined;
  const received: Received[] = [];
  const rejected: string[] = [];
  const secrets = new Map<string, string>();
  const answers: Receiver['answers'] = new Map();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const hook = /^\/hooks\/([\w-]+)$/.exec(req.url ?? '')?.[1] ?? '';
      const body = Buffer.concat(chunks).toString('utf8');
      const secret = secrets.get(hook);
      try {
        if (!secret) throw new Error(`no secret for hook ${hook}`);
        const payload = new Webhook(secret).verify(body, req.headers as Record<string, string>) as {
          type: string;
          data: Record<string, any>;
        };
        received.push({
          hook,
          id: String(req.headers['webhook-id']),
          timestamp: String(req.headers['webhook-timestamp']),
          type: payload.type,
          data: payload.data,
        });
        const answer = answers.get(hook);
        res.writeHead(answer?.status ?? 204, answer?.headers).end(answer?.body);
      } catch (error) {
        rejected.push(`${hook}: ${(error as Error).message}`);
        res.writeHead(401).end();
      }
    });
  };
  const serve = (): Server | import('node:http').Server =>
    cert ? createServer({ cert: cert.pem, key: key! }, handler) : createHttpServer(handler);
  let server = serve();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    received,
    rejected,
    secrets,
    answers,
    url: (hook) => `${cert ? 'https' : 'http'}://127.0.0.1:${port}/hooks/${hook}`,
    of: (hook) => received.filter((r) => r.hook === hook),
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async start() {
      server = serve();
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
  };
}
