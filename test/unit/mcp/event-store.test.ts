import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { SessionEventStore, UserEventBudget } from '../../../src/mcp/event-store.js';

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
    expect(await replay(store, priming)).toEqual({
      streamId: 'a',
      sent: [
        [first, message(1)],
        [second, message(2)],
      ],
    });
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

describe("the per-user budget over all of a user's sessions", () => {
  const big = (id: number) => message(id, 'x'.repeat(1_000));

  it("drops the user's oldest events, whichever session holds them, and keeps other users' events", async () => {
    const budget = new UserEventBudget(5_000);
    const first = budget.storeFor('ann');
    const second = budget.storeFor('ann');
    const bob = budget.storeFor('bob');
    const bobs = [await bob.storeEvent('b', big(0)), await bob.storeEvent('b', big(1))];
    const firsts = [await first.storeEvent('a', big(1)), await first.storeEvent('a', big(2))];
    for (let i = 0; i < 4; i++) await second.storeEvent('s', big(10 + i));
    expect(budget.bytesOf('ann')).toBeLessThanOrEqual(5_000);
    expect(first.size.events + second.size.events).toBe(4);
    // The two oldest of Ann's six events were the first session's.
    expect(first.size.events).toBe(0);
    expect(await first.getStreamIdForEventId(firsts[1]!)).toBeUndefined();
    expect(await bob.getStreamIdForEventId(bobs[0]!)).toBe('b');
    expect(budget.bytesOf('bob')).toBe(bob.size.bytes);
  });

  it("never drops the event being stored, and gives a closed session's bytes back", async () => {
    const budget = new UserEventBudget(500);
    const store = budget.storeFor('ann');
    const id = await store.storeEvent('a', big(1));
    expect(await store.getStreamIdForEventId(id)).toBe('a');
    expect(store.size.events).toBe(1);
    const other = budget.storeFor('ann');
    await other.storeEvent('o', big(2));
    expect(store.size.events).toBe(0);
    expect(budget.bytesOf('ann')).toBe(other.size.bytes);
    other.close();
    store.close();
    expect(budget.bytesOf('ann')).toBe(0);
  });
});
