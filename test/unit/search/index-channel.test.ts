import { afterEach, expect, it } from 'vitest';
import { WorkerChannel } from '../../../src/search/index-channel.js';
import { replyValue, type IndexRequest } from '../../../src/search/index-host.js';
import type { IndexedDocument, SearchAnswer } from '../../../src/search/index.js';
import { CORPUS, SHARED, UPDATED_AT } from './corpus.js';

const ORG = '11111111-1111-4111-8111-111111111111';
const search: IndexRequest = {
  op: 'search',
  orgId: ORG,
  query: { query: 'guest checkout', workspaceIds: new Set([SHARED]), limit: 50 },
};
/** The shop corpus many times over: adding it keeps the worker busy for a while. */
const manyDocs = (copies: number): IndexedDocument[] =>
  Array.from({ length: copies }, (_, copy) => CORPUS.map((doc) => ({ ...doc, id: `${doc.id}-${copy}` }))).flat();
const titles = (value: unknown): string[] => (value as SearchAnswer).hits.map((hit) => hit.title);

const channels: WorkerChannel[] = [];
afterEach(async () => {
  await Promise.all(channels.splice(0).map((channel) => channel.close()));
});

it('answers the requests a lost worker had not answered with a failed reply, tells onLost, and serves again from a new worker', async () => {
  let lost = 0;
  const channel = new WorkerChannel(() => (lost += 1));
  channels.push(channel);
  replyValue(await channel.send({ op: 'add', orgId: ORG, docs: CORPUS }));
  expect(titles(replyValue(await channel.send(search)))).toContain('Guest checkout');

  // Sent once the stop has begun, so the dying worker cannot answer it whatever the scheduling.
  const stopped = channel.terminate();
  const inFlight = channel.send(search);
  await stopped;
  expect(await inFlight).toEqual({
    ok: false,
    failure: 'failed',
    message: 'the search index worker stopped (exit code 1)',
  });
  expect(lost).toBe(1);

  // The new worker starts empty: the index went with the old one, which is why onLost is told.
  // Reads say so instead of answering from an empty index.
  expect(await channel.send(search)).toEqual({
    ok: false,
    failure: 'not-loaded',
    message: `the search index of organization ${ORG} is not loaded`,
  });
  replyValue(await channel.send({ op: 'add', orgId: ORG, docs: CORPUS }));
  expect(titles(replyValue(await channel.send(search)))).toContain('Guest checkout');
  expect(lost).toBe(1);
});

it('fails the requests pending at close without telling onLost, and serves a request sent meanwhile from a new worker', async () => {
  let lost = 0;
  const channel = new WorkerChannel(() => (lost += 1));
  channels.push(channel);
  // The search waits behind a large add in the worker, so neither is answered before the close.
  const adding = channel.send({ op: 'add', orgId: ORG, docs: manyDocs(300) });
  const pending = channel.send(search);
  const closed = channel.close();
  // Sent while the worker stops: it goes to the next worker, not down with the old one.
  const next = channel.send({ op: 'size', orgId: ORG });
  await closed;
  expect(await adding).toEqual({ ok: false, failure: 'failed', message: 'the search index worker was closed' });
  expect(await pending).toEqual({ ok: false, failure: 'failed', message: 'the search index worker was closed' });
  expect(lost).toBe(0);
  expect(await next).toEqual({
    ok: false,
    failure: 'not-loaded',
    message: `the search index of organization ${ORG} is not loaded`,
  });
});

it('indexes a large body sent to the worker as moved bytes exactly as a short one sent as text', async () => {
  const channel = new WorkerChannel(() => undefined);
  channels.push(channel);
  replyValue(await channel.send({ op: 'add', orgId: ORG, docs: CORPUS }));
  const filler = 'Ordinary handbook paragraph about nothing in particular, größer als gedacht. '.repeat(2_000);
  const large = {
    id: 'large-handbook',
    type: 'page' as const,
    workspaceId: SHARED,
    title: 'Large handbook',
    body: `${filler}\nThe zeppelin mooring procedure.\n`,
    updatedAt: UPDATED_AT,
  };
  expect(large.body.length).toBeGreaterThan(64 * 1024);
  replyValue(await channel.send({ op: 'upsert', orgId: ORG, doc: large }));
  const found = (query: string) =>
    channel.send({ op: 'search', orgId: ORG, query: { query, workspaceIds: new Set([SHARED]), limit: 5 } });
  const { hits } = replyValue(await found('zeppelin mooring')) as SearchAnswer;
  expect(hits.map((hit) => hit.id)).toEqual(['large-handbook']);
  expect(hits[0]!.preview).toContain('zeppelin mooring');
  expect((replyValue(await found('größer')) as SearchAnswer).hits.map((hit) => hit.id)).toContain('large-handbook');
});
