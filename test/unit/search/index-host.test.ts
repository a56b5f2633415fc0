import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IndexHost, replyValue, type IndexRequest } from '../../../src/search/index-host.js';
import { readSavedIndex } from '../../../src/search/saved-index.js';
import type { IndexedDocument, SearchAnswer } from '../../../src/search/index.js';
import { CORPUS, SHARED, UPDATED_AT } from './corpus.js';

const ORG = '11111111-1111-4111-8111-111111111111';
const search = (text: string): IndexRequest => ({
  op: 'search',
  orgId: ORG,
  query: { query: text, workspaceIds: new Set([SHARED]), limit: 50 },
});
const titles = (value: unknown): string[] => (value as SearchAnswer).hits.map((hit) => hit.title);

/** The shop corpus many times over, so an export has several chunks to hand over. */
const manyDocs = (copies: number): IndexedDocument[] =>
  Array.from({ length: copies }, (_, copy) =>
    CORPUS.map((doc) => ({ ...doc, id: `${doc.id}-${copy}`, workspaceId: SHARED })),
  ).flat();

describe('IndexHost while an index is being saved', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'specbase-host-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('answers a search sent during a save before the save ends, and the save holds every document', async () => {
    const host = new IndexHost();
    const docs = manyDocs(200);
    replyValue(await host.handle({ op: 'add', orgId: ORG, docs }));
    const finished: string[] = [];
    const save = host
      .handle({ op: 'save', orgId: ORG, dir, version: 'v1' })
      .then((reply) => (finished.push('save'), reply));
    const found = host.handle(search('guest checkout')).then((reply) => (finished.push('search'), reply));
    const [saved, hits] = await Promise.all([save, found]);
    expect(finished).toEqual(['search', 'save']);
    expect(replyValue(saved)).toBeNull();
    expect(titles(replyValue(hits))).toContain('Guest checkout');
    const restored = await readSavedIndex(dir);
    expect(restored?.version).toBe('v1');
    expect(restored?.snapshot.docs).toHaveLength(docs.length);
  });

  it('keeps a change sent during a save behind it, and a search sent after the change sees it', async () => {
    const host = new IndexHost();
    replyValue(await host.handle({ op: 'add', orgId: ORG, docs: manyDocs(50) }));
    const finished: string[] = [];
    const track = (name: string, reply: ReturnType<IndexHost['handle']>) =>
      reply.then((value) => (finished.push(name), value));
    const renamed: IndexedDocument = {
      id: 'late',
      type: 'feature',
      workspaceId: SHARED,
      title: 'Wishlist sharing',
      body: '# Wishlist sharing\n\nShare a wishlist.\n',
      updatedAt: UPDATED_AT,
    };
    const save = track('save', host.handle({ op: 'save', orgId: ORG, dir, version: 'v1' }));
    const upsert = track('upsert', host.handle({ op: 'upsert', orgId: ORG, doc: renamed }));
    const found = track('search', host.handle(search('wishlist sharing')));
    const [, , hits] = await Promise.all([save, upsert, found]);
    expect(finished).toEqual(['save', 'upsert', 'search']);
    expect(titles(replyValue(hits))).toEqual(['Wishlist sharing']);
    // The save was taken before the change: it holds the documents as they were.
    expect((await readSavedIndex(dir))?.snapshot.docs.some((doc) => doc.id === 'late')).toBe(false);
  });
});
