import { describe, expect, it } from 'vitest';
import { layoutMoves } from '../../../src/store/org/migrate-layout.js';
import { OrgState } from '../../../src/store/catalog/index.js';
import type { ArtifactMeta } from '../../../src/store/types.js';

const meta = (id: string, type: ArtifactMeta['type'], path: string): ArtifactMeta => ({
  id,
  type,
  path,
  parentId: null,
  workspaceId: 'w',
  title: 't',
  createdAt: '2024-01-01T00:00:00.000Z',
  version: 'c'.repeat(40),
  updatedAt: '2024-01-01T00:00:00.000Z',
  updatedBy: { name: 'a', email: 'a@x' },
});

describe('layoutMoves', () => {
  it('moves first-layout files into their shards and leaves the product and sharded files alone', () => {
    const state = new OrgState();
    state.setArtifact(meta('11111111-0000-4000-8000-000000000001', 'product', 'product.md'), 'b1');
    state.setArtifact(meta('3f2c9a1e-0000-4000-8000-000000000002', 'capability', 'capabilities/pay-3f2c9a1e.md'), 'b2');
    state.setArtifact(
      meta('a0b1c2d3-0000-4000-8000-000000000003', 'feature', 'features/a0/b1/cards-a0b1c2d3.md'),
      'b3',
    );
    state.setArtifact(meta('e2f3a4b5-0000-4000-8000-000000000004', 'page', 'pages/guides/install-e2f3a4b5.md'), 'b4');
    state.setFolder({
      id: 'c4d5e6f7-0000-4000-8000-000000000005',
      name: 'Guides',
      parentId: null,
      workspaceId: 'w',
      path: 'pages/guides/_folder.md',
      createdAt: '',
    });
    expect(layoutMoves(state)).toEqual([
      {
        id: '3f2c9a1e-0000-4000-8000-000000000002',
        from: 'capabilities/pay-3f2c9a1e.md',
        to: 'capabilities/3f/2c/pay-3f2c9a1e.md',
      },
      {
        id: 'e2f3a4b5-0000-4000-8000-000000000004',
        from: 'pages/guides/install-e2f3a4b5.md',
        to: 'pages/e2/f3/install-e2f3a4b5.md',
      },
      {
        id: 'c4d5e6f7-0000-4000-8000-000000000005',
        from: 'pages/guides/_folder.md',
        to: 'folders/c4/d5/guides-c4d5e6f7.md',
      },
    ]);
  });

  it('never plans two files onto one path, nor onto a file that is there', () => {
    const state = new OrgState();
    state.setArtifact(meta('3f2c0000-0000-4000-8000-000000000001', 'page', 'pages/a/readme.md'), 'b1');
    state.setArtifact(meta('3f2c1111-0000-4000-8000-000000000002', 'page', 'pages/b/readme.md'), 'b2');
    state.setArtifact(meta('3f2c2222-0000-4000-8000-000000000003', 'page', 'pages/3f/2c/notes.md'), 'b3');
    state.setArtifact(meta('3f2c3333-0000-4000-8000-000000000004', 'page', 'pages/c/notes.md'), 'b4');
    expect(layoutMoves(state).map((m) => [m.from, m.to])).toEqual([['pages/a/readme.md', 'pages/3f/2c/readme.md']]);
  });

  it('finds nothing to move in a catalog already in the sharded layout', () => {
    const state = new OrgState();
    state.setArtifact(meta('11111111-0000-4000-8000-000000000001', 'product', 'product.md'), 'b1');
    state.setArtifact(
      meta('a0b1c2d3-0000-4000-8000-000000000003', 'feature', 'features/a0/b1/cards-a0b1c2d3.md'),
      'b3',
    );
    state.setFolder({
      id: 'c4d5e6f7-0000-4000-8000-000000000005',
      name: 'Renamed',
      parentId: null,
      workspaceId: 'w',
      path: 'folders/c4/d5/guides-c4d5e6f7.md',
      createdAt: '',
    });
    expect(layoutMoves(state)).toEqual([]);
  });
});
