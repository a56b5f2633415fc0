import { describe, expect, it } from 'vitest';
import { artifactType } from '../../../src/artifacts/index.js';
import {
  artifactPath,
  folderPath,
  shardedArtifactPath,
  shardedFolderPath,
  slugify,
} from '../../../src/store/layout/index.js';

const ID = '3f2c9a1e-5b7d-4c3e-9f10-2a4b6c8d0e12';

describe('repository paths (layout v2: sharded by id)', () => {
  it('puts each type in two levels of shards named by the id, with slug and id8 in the file name', () => {
    expect(artifactPath(artifactType('feature'), ID, 'Search latency')).toBe(
      'features/3f/2c/search-latency-3f2c9a1e.md',
    );
    expect(artifactPath(artifactType('acceptance_criterion'), ID, 'Pays with a saved card!')).toBe(
      'acceptance-criteria/3f/2c/pays-with-a-saved-card-3f2c9a1e.md',
    );
    expect(artifactPath(artifactType('page'), ID, 'Install')).toBe('pages/3f/2c/install-3f2c9a1e.md');
    expect(artifactPath(artifactType('core_entity'), ID, '日本語')).toBe('core-entities/3f/2c/core-entity-3f2c9a1e.md');
  });

  it('keeps the product at the root', () => {
    expect(artifactPath(artifactType('product'), ID, 'Acme')).toBe('product.md');
    expect(shardedArtifactPath(artifactType('product'), ID, 'product.md')).toBe('product.md');
  });

  it('shards folder records under folders/ with the name in the file name', () => {
    expect(folderPath(ID, 'Set-up notes')).toBe('folders/3f/2c/set-up-notes-3f2c9a1e.md');
    expect(folderPath(ID, '???')).toBe('folders/3f/2c/folder-3f2c9a1e.md');
  });

  it('moves a first-layout file into its shard under the same name, and leaves a sharded one alone', () => {
    const requirement = artifactType('requirement');
    expect(shardedArtifactPath(requirement, ID, 'requirements/old-title-3f2c9a1e.md')).toBe(
      'requirements/3f/2c/old-title-3f2c9a1e.md',
    );
    expect(shardedArtifactPath(artifactType('page'), ID, 'pages/guides/setup/install-3f2c9a1e.md')).toBe(
      'pages/3f/2c/install-3f2c9a1e.md',
    );
    const sharded = artifactPath(requirement, ID, 'Title');
    expect(shardedArtifactPath(requirement, ID, sharded)).toBe(sharded);
  });

  it('names a moved folder record after the folder, and leaves a sharded one alone even if renamed', () => {
    expect(shardedFolderPath(ID, 'Guides', 'pages/guides-3f2c9a1e/_folder.md')).toBe(
      'folders/3f/2c/guides-3f2c9a1e.md',
    );
    expect(shardedFolderPath(ID, 'Renamed', 'folders/3f/2c/guides-3f2c9a1e.md')).toBe(
      'folders/3f/2c/guides-3f2c9a1e.md',
    );
  });

  it('slugs titles to readable ASCII', () => {
    expect(slugify('Crème brûlée: 2 ways')).toBe('creme-brulee-2-ways');
    expect(slugify('x'.repeat(80))).toHaveLength(50);
  });
});
