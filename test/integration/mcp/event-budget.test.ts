import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness, type Persona } from '../../support/harness.js';
import { initialize, type McpSession } from '../startup/rpc.js';
import { call, connect } from './clients.js';

/** Small enough that two sessions' reads of one page overflow it; a session's own bound is 4 MiB. */
const BUDGET = 200_000;

interface SseEvent {
  readonly id?: string;
  readonly data: string;
}

/** The events of an SSE response, until it ends or `ms` pass without its end (then it is cancelled). */
async function eventsOf(response: Response, ms: number): Promise<SseEvent[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + ms;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const next = await Promise.race([
      reader.read(),
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), left)),
    ]);
    if (next === 'timeout' || next.done) break;
    text += decoder.decode(next.value, { stream: true });
  }
  await reader.cancel().catch(() => undefined);
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split('\n');
      const id = lines
        .find((line) => line.startsWith('id:'))
        ?.slice(3)
        .trim();
      const data = lines
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n');
      return id === undefined ? { data } : { id, data };
    });
}

let nextId = 1000;

/** A resumable tools/call: the id of the stream's first (priming) event, and the result's text. */
async function readPage(session: McpSession, pageId: string): Promise<{ priming: string; result: string }> {
  const response = await fetch(session.url, {
    method: 'POST',
    headers: { ...session.headers, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: { name: 'specbase_read_page', arguments: { pageId, mode: 'full' } },
    }),
  });
  const events = await eventsOf(response, 10_000);
  const result = events.find((event) => event.data.includes('"result"'));
  expect(events[0]?.id, JSON.stringify(events)).toBeDefined();
  expect(result).toBeDefined();
  return { priming: events[0]!.id!, result: result!.data };
}

/**
 * What a client reconnecting with Last-Event-ID gets replayed; for an event no longer kept, the
 * SDK's answer to an id its event store does not know (400).
 */
async function replayAfter(session: McpSession, lastEventId: string): Promise<string[] | string> {
  const response = await fetch(session.url, {
    headers: { ...session.headers, Accept: 'text/event-stream', 'Last-Event-ID': lastEventId },
  });
  if (response.status !== 200) return `${response.status} ${await response.text()}`;
  return (await eventsOf(response, 700)).map((event) => event.data).filter(Boolean);
}

describe('resumable events are bounded per user, over all their sessions', () => {
  let h: Harness;
  let pageId: string;
  const open = (persona: Persona) =>
    initialize(
      `${h.baseUrl}/api/mcp/mcp`,
      { Authorization: `Bearer ${h.users[persona].token}`, 'X-Organization-Id': h.orgId },
      '2025-11-25',
    );

  beforeAll(async () => {
    h = await startHarness({ mcp: { eventBytesPerUser: BUDGET } });
    const client = await connect(h, 'owner');
    pageId = (await call(client, 'specbase_create_page', { title: 'Forty kilobytes' })).data.id as string;
    await client.close();
    const body = `# Forty kilobytes\n\n${'A line of the page that makes it large. '.repeat(1_000)}\n`;
    await h.services.store.update(h.orgId, pageId, { verb: 'edit', body }, { author: h.users.owner.user });
  });

  afterAll(async () => {
    await h?.close();
  });

  it("drops the oldest session's events once the user's other sessions pass the budget, and no other user's", async () => {
    const first = await open('owner');
    const other = await open('editor');
    const firstRead = await readPage(first, pageId);
    const otherRead = await readPage(other, pageId);
    expect(firstRead.result.length).toBeGreaterThan(BUDGET / 3);
    // Resumable so far: a reconnect after the priming event gets the result again.
    expect(await replayAfter(first, firstRead.priming)).toEqual([firstRead.result]);

    const second = await open('owner');
    await readPage(second, pageId);
    await readPage(second, pageId);

    expect(await replayAfter(first, firstRead.priming)).toMatch(/^400 .*Invalid event ID/);
    expect(await replayAfter(other, otherRead.priming)).toEqual([otherRead.result]);
  });
});
