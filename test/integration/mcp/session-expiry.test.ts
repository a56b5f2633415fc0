import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { expect, it } from 'vitest';
import { SessionRegistry } from '../../../src/mcp/sessions.js';
import type { RequestScope } from '../../../src/mcp/types.js';
import { FULL_CONNECTION } from '../../../src/tools/index.js';

const scope = (userId: string, orgId = 'org-1'): RequestScope => ({
  user: { userId, clientId: 'c', scopes: [], via: 'pat', credential: { kind: 'token', id: 't' } },
  orgId,
  connection: FULL_CONNECTION,
});

it('closes sessions idle for too long, keeps active ones, and refuses other users', async () => {
  const registry = new SessionRegistry<InMemoryTransport>(60_000, (error) => {
    throw error;
  });
  const open = async (id: string) => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = new Server({ name: 's', version: '1' }, { capabilities: {} });
    server.onclose = () => registry.remove(id);
    await server.connect(serverSide);
    const client = new Client({ name: 'c', version: '1' });
    let clientClosed = false;
    client.onclose = () => {
      clientClosed = true;
    };
    await client.connect(clientSide);
    registry.add({
      id,
      userId: 'u1',
      orgId: 'org-1',
      transport: serverSide,
      close: () => server.close(),
      activity: { busy: 0, lastActiveAt: Date.now() },
    });
    return { isClosed: () => clientClosed };
  };
  const idle = await open('idle');
  const active = await open('active');
  registry.claim('active', scope('u1'))!.activity.lastActiveAt = Date.now() + 30_000;

  expect(() => registry.claim('active', scope('u2'))).toThrow(/another user/);
  expect(() => registry.claim('active', scope('u1', 'org-2'))).toThrow(/another user or organization/);

  registry.sweep(Date.now() + 61_000);
  await new Promise((resolve) => setTimeout(resolve, 10));
  expect(registry.claim('idle', scope('u1'))).toBeUndefined();
  expect(idle.isClosed()).toBe(true);
  expect(registry.claim('active', scope('u1'))).toBeDefined();
  expect(active.isClosed()).toBe(false);
  await registry.closeAll();
  expect(registry.size).toBe(0);
  expect(active.isClosed()).toBe(true);
});
