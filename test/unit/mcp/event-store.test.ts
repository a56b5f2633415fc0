import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { SessionEventStore } from '../../../src/mcp/event-store.js';

const message = (id: number, text = ''): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { text } });

async function replay(store: SessionEventStore, lastEventId: string) {
  const sent: [string, JSONRPCMessage][] = [];
  const streamId = await store.replayEventsAfter(lastEventId, { send: async (id, m) => void sent.push([id, m]) });
  return { streamId, sent };
}

describe('the per-session event store', () => {
  it('replays, in order, what one stream got after the last event the client saw, and nothing of other streams', async () => {
    const store = new SessionEventStore();
    const priming = await store.storeEvent('a', {} as JSONRPCMessage);
    await store.storeEvent('b', message(9));
    const first = await store.storeEvent('a', message(1));
    const second = await store.storeEvent('a', message(2));
    expect(await replay(store, priming)).toEqual({ streamId: 'a', sent: [[first, message(1)], [second, message(2)]] });
    expect(await replay(store, second)).toEqual({ streamId: 'a', sent: [] });
    expect(await store.getStreamIdForEventId(first)).toBe('a');
  });

  it('resumes nothing from an unknown id', async () => {
    const store = new SessionEventStore();
    await store.storeEvent('a', message(1));
    expect(await replay(store, 'a.999')).toEqual({ streamId: '', sent: [] });
    expect(await replay(store, 'nonsense')).toEqual({ streamId: '', sent: [] });
  });

  it('stays within its bounds of events and bytes, dropping the oldest', async () => {
    const byCount = new SessionEventStore({ maxEvents: 3, maxBytes: 1_000_000 });
    const ids = [];
    for (let i = 0; i < 10; i++) ids.push(await byCount.storeEvent('a', message(i)));
    expect(byCount.size.events).toBe(3);
    expect(await byCount.getStreamIdForEventId(ids[0]!)).toBeUndefined();
    expect((await replay(byCount, ids[7]!)).sent.map(([id]) => id)).toEqual([ids[8], ids[9]]);

    const byBytes = new SessionEventStore({ maxEvents: 1000, maxBytes: 2_000 });
    for (let i = 0; i < 10; i++) await byBytes.storeEvent('a', message(i, 'x'.repeat(500)));
    expect(byBytes.size.bytes).toBeLessThanOrEqual(2_000);
    expect(byBytes.size.events).toBe(3);
  });
});
