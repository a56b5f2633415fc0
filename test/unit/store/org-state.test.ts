import { describe, expect, it } from 'vitest';
import { OrgState } from '../../../src/store/catalog/index.js';
import type { ArtifactMeta, HistoryEntry } from '../../../src/store/types.js';

const author = { name: 'Ana', email: 'ana@example.com' };

const meta = (id: string, over: Partial<ArtifactMeta> = {}): ArtifactMeta => ({
  id,
  type: 'capability',
  parentId: 'product',
  workspaceId: 'ws-a',
  title: id,
  path: `capabilities/${id}.md`,
  createdAt: '2026-01-01T00:00:00.000Z',
  version: 'c0',
  updatedAt: '2026-01-01T00:00:00.000Z',
  updatedBy: author,
  ...over,
});

const entry = (commit: string, artifactId: string): HistoryEntry => ({
  commit,
  parent: null,
  verb: 'edit',
  artifactId,
  artifactType: 'capability',
  title: artifactId,
  message: commit,
  author,
  authoredAt: '2026-01-01T00:00:00.000Z',
  added: 1,
  removed: 0,
});

describe('OrgState indexes', () => {
  it('lists children by parent in creation order, and an edit keeps the place', () => {
    const state = new OrgState();
    state.setArtifact(meta('product', { type: 'product', parentId: null }), 'b0');
    for (const id of ['a', 'b', 'c']) state.setArtifact(meta(id), `b-${id}`);
    state.setArtifact(meta('u', { type: 'user_type' }), 'b-u');
    state.setArtifact(meta('a', { title: 'A edited' }), 'b-a2');
    expect(state.children('product').map((m) => m.title)).toEqual(['A edited', 'b', 'c', 'u']);
    expect(state.children('product', 'capability').map((m) => m.id)).toEqual(['a', 'b', 'c']);
    expect(state.children(null).map((m) => m.id)).toEqual(['product']);
    expect(state.children('nobody')).toEqual([]);
  });

  it('re-files a moved artifact and forgets a removed one', () => {
    const state = new OrgState();
    state.setArtifact(meta('a'), 'b1');
    state.setArtifact(meta('b'), 'b2');
    state.setArtifact(meta('a', { parentId: 'other', workspaceId: 'ws-b' }), 'b3');
    expect(state.children('product').map((m) => m.id)).toEqual(['b']);
    expect(state.children('other').map((m) => m.id)).toEqual(['a']);
    expect(state.ofType('capability', new Set(['ws-a'])).map((m) => m.id)).toEqual(['b']);
    state.removeArtifact('b');
    expect(state.children('product')).toEqual([]);
    expect(state.ofType('capability', new Set(['ws-a', 'ws-b'])).map((m) => m.id)).toEqual(['a']);
  });

  it('lists a type across readable workspaces in creation order, nothing from the others', () => {
    const state = new OrgState();
    state.setArtifact(meta('p1', { type: 'page', workspaceId: 'ws-b' }), 'b');
    state.setArtifact(meta('p2', { type: 'page', workspaceId: 'ws-a' }), 'b');
    state.setArtifact(meta('p3', { type: 'page', workspaceId: 'ws-c' }), 'b');
    state.setArtifact(meta('p4', { type: 'page', workspaceId: 'ws-b' }), 'b');
    expect(state.ofType('page', new Set(['ws-a', 'ws-b'])).map((m) => m.id)).toEqual(['p1', 'p2', 'p4']);
    expect(state.ofType('page', new Set())).toEqual([]);
  });

  it('indexes folders by parent folder', () => {
    const state = new OrgState();
    const folder = (id: string, parentId: string | null) => ({
      id,
      name: id,
      parentId,
      workspaceId: 'ws-a',
      path: `pages/${id}/_folder.md`,
      createdAt: '',
    });
    state.setFolder(folder('f1', null));
    state.setFolder(folder('f2', 'f1'));
    state.setFolder(folder('f3', null));
    expect(state.subfolders(null).map((f) => f.id)).toEqual(['f1', 'f3']);
    expect(state.subfolders('f1').map((f) => f.id)).toEqual(['f2']);
    state.removeFolder('f2');
    expect(state.subfolders('f1')).toEqual([]);
    expect(state.folder('f3')?.name).toBe('f3');
  });

  it('answers the recent changes of readable workspaces, newest first, at most the limit', () => {
    const state = new OrgState();
    state.addEntry(entry('c1', 'a'), 'ws-a');
    state.addEntry(entry('c2', 'b'), 'ws-b');
    state.addEntry(entry('c3', 'a'), 'ws-a');
    state.addEntry(entry('c4', 'c'), 'ws-c');
    state.addEntry(entry('c5', 'b'), 'ws-b');
    const commits = (ws: string[], limit: number) => state.recentChanges(new Set(ws), limit).map((e) => e.commit);
    expect(commits(['ws-a', 'ws-b'], 3)).toEqual(['c5', 'c3', 'c2']);
    expect(commits(['ws-a', 'ws-b'], 10)).toEqual(['c5', 'c3', 'c2', 'c1']);
    expect(commits(['ws-c'], 10)).toEqual(['c4']);
    expect(commits(['ws-a'], 0)).toEqual([]);
    expect(state.byArtifact.get('a')?.map((e) => e.commit)).toEqual(['c1', 'c3']);
  });

  it('names the artifacts changed after a commit, once each, oldest first; unknown commit: undefined', () => {
    const state = new OrgState();
    for (const [commit, id] of [
      ['c1', 'a'],
      ['c2', 'b'],
      ['c3', 'c'],
      ['c4', 'b'],
      ['c5', 'd'],
    ] as const)
      state.addEntry(entry(commit, id), 'ws-a');
    expect(state.changedSince('c2')).toEqual(['c', 'b', 'd']);
    expect(state.changedSince('c5')).toEqual([]);
    expect(state.changedSince('nowhere')).toBeUndefined();
  });
});
