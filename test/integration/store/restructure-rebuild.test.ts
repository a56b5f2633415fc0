import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitStore } from '../../../src/store/index.js';
import { alice, bob, capabilityInput, git, openStoreFixture, ORG, WORKSPACE, type StoreFixture } from './fixture.js';

/**
 * Deletes, restores and moves leave the same catalog, history and Deleted list whether a process
 * made them, followed them from another, loaded them from its saved state, or rebuilt from Git.
 */
let f: StoreFixture;
const OTHER_WORKSPACE = '5f4e3d2c-1b0a-4c9d-8e7f-6a5b4c3d2e1f';

const snapshot = async (store: GitStore) => {
  const catalog = (await store.catalog(ORG)).map(({ id, type, parentId, workspaceId, title, path, version }) => ({
    id,
    type,
    parentId,
    workspaceId,
    title,
    path,
    version,
  }));
  const histories = Object.fromEntries(
    await Promise.all(
      catalog.map(async (m) => [m.id, (await store.history(ORG, m.id)).map((e) => `${e.verb} ${e.commit}`)] as const),
    ),
  );
  const deleted = (await store.deleted(ORG)).map(({ id, commit, named, descendants, workspaceId }) => ({
    id,
    commit,
    named,
    descendants,
    workspaceId,
  }));
  const folders = (await store.folders(ORG)).map(({ id, name, parentId, workspaceId }) => ({
    id,
    name,
    parentId,
    workspaceId,
  }));
  const links = await store.links(ORG);
  const backlinks = Object.fromEntries(catalog.map((m) => [m.id, [...links.linksTo(m.id)].sort()]));
  return {
    catalog: catalog.sort((a, b) => a.id.localeCompare(b.id)),
    histories,
    deleted,
    folders: folders.sort((a, b) => a.id.localeCompare(b.id)),
    backlinks,
  };
};

beforeAll(async () => {
  f = await openStoreFixture();
});
afterAll(async () => {
  await f?.close();
});

describe('restructuring, replayed', () => {
  it('agrees across the writing process, a follower, a saved state and a rebuild from Git', async () => {
    const follower = new GitStore({ dataDir: f.dataDir, cacheDir: `${f.dataDir}/cache-follower` });
    try {
      await follower.catalog(ORG);
      const a = (await f.store.create(ORG, capabilityInput(f.productId, 'Alpha'), alice)).artifact;
      const b = (await f.store.create(ORG, capabilityInput(f.productId, 'Beta'), alice)).artifact;
      const feature = (
        await f.store.create(
          ORG,
          {
            type: 'feature',
            parentId: a.id,
            workspaceId: WORKSPACE,
            title: 'Feat',
            body: `# Feat\n\nSee [beta](/o/${ORG}/a/${b.id}).\n`,
          },
          alice,
        )
      ).artifact;
      const requirement = (
        await f.store.create(
          ORG,
          { type: 'requirement', parentId: feature.id, workspaceId: WORKSPACE, title: 'Req', body: '# Req\n\nText.\n' },
          alice,
        )
      ).artifact;
      await f.store.create(
        ORG,
        {
          type: 'acceptance_criterion',
          parentId: requirement.id,
          workspaceId: WORKSPACE,
          title: 'AC',
          body: '# AC\n\nGiven.\n',
        },
        alice,
      );
      const folder = await f.store.createFolder(ORG, { name: 'Docs', parentId: null, workspaceId: WORKSPACE }, alice);
      const inner = await f.store.createFolder(
        ORG,
        { name: 'Inner', parentId: null, workspaceId: OTHER_WORKSPACE },
        alice,
      );
      const page = (
        await f.store.create(
          ORG,
          {
            type: 'page',
            parentId: folder.id,
            workspaceId: WORKSPACE,
            title: 'Page',
            body: `# Page\n\n<http://x/o/${ORG}/a/${feature.id}>\n`,
          },
          alice,
        )
      ).artifact;

      // An edit gives the requirement a link to Alpha, and one to another organization's artifact that counts for nobody here.
      const foreign = `/o/9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d/a/${a.id}`;
      await f.store.update(
        ORG,
        requirement.id,
        { body: `# Req\n\nText, see [alpha](/o/${ORG}/a/${a.id}) and [theirs](${foreign}).\n`, verb: 'edit' },
        alice,
      );
      await f.store.move(ORG, feature.id, { parentId: b.id, workspaceId: WORKSPACE }, bob);
      await f.store.delete(ORG, feature.id, { recursive: true }, bob);
      await f.store.delete(ORG, page.id, { recursive: false }, bob);
      await f.store.restoreDeleted(ORG, feature.id, { rootWorkspaceId: WORKSPACE }, bob);
      await f.store.moveFolder(ORG, folder.id, { parentId: inner.id, workspaceId: OTHER_WORKSPACE }, bob);
      await f.store.renameFolder(ORG, inner.id, 'Renamed', bob);
      const empty = await f.store.createFolder(ORG, { name: 'Empty', parentId: null, workspaceId: WORKSPACE }, alice);
      await f.store.deleteFolder(ORG, empty.id, bob);
      // A page whose folder went since comes back at the top level.
      const lone = await f.store.createFolder(
        ORG,
        { name: 'Lone', parentId: null, workspaceId: OTHER_WORKSPACE },
        alice,
      );
      const orphan = (
        await f.store.create(
          ORG,
          { type: 'page', parentId: lone.id, workspaceId: OTHER_WORKSPACE, title: 'Orphan', body: '# Orphan\n' },
          alice,
        )
      ).artifact;
      await f.store.delete(ORG, orphan.id, { recursive: false }, bob);
      await f.store.deleteFolder(ORG, lone.id, bob);
      const [back] = await f.store.restoreDeleted(ORG, orphan.id, { rootWorkspaceId: WORKSPACE }, bob);
      expect(back!.artifact).toMatchObject({ parentId: null, workspaceId: WORKSPACE });
      git(f.gitdir, 'fsck', '--strict');

      const written = await snapshot(f.store);
      expect(written.deleted.map((d) => d.id)).toEqual([page.id]);
      expect(written.histories[feature.id]!.map((e) => e.split(' ')[0])).toEqual([
        'restore',
        'delete',
        'move',
        'create',
      ]);
      expect(written.catalog.find((m) => m.id === requirement.id)!.parentId).toBe(feature.id);
      expect(written.backlinks[b.id]).toEqual([feature.id]);
      expect(written.backlinks[a.id]).toEqual([requirement.id]);
      expect(written.folders.find((x) => x.id === folder.id)).toMatchObject({
        parentId: inner.id,
        workspaceId: OTHER_WORKSPACE,
      });

      expect(await snapshot(follower)).toEqual(written);

      await f.store.close();
      const reloaded = new GitStore({ dataDir: f.dataDir });
      expect(await snapshot(reloaded)).toEqual(written);
      await reloaded.close();

      await rm(`${f.dataDir}/cache`, { recursive: true, force: true });
      const rebuilt = new GitStore({ dataDir: f.dataDir });
      expect(await snapshot(rebuilt)).toEqual(written);
      await rebuilt.close();
    } finally {
      await follower.close();
    }
  });
});
