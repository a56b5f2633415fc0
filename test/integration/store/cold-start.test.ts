import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { fastImport } from '../../support/seed.js';
import { organizationArtifacts, type SeedArtifact } from '../../support/org-shape.js';
import { NotFoundError } from '../../../src/errors.js';
import { GitStore } from '../../../src/store/index.js';
import { alice, bob, ORG, WORKSPACE } from './fixture.js';

/** Large enough that building its catalog from Git takes far longer than reading one file. */
const ARTIFACTS = 2_500;

let dataDir: string;
let gitdir: string;
/** The organization's directory among the store's caches: its saved state. */
let cacheDir: string;
let artifacts: SeedArtifact[];
const stores: GitStore[] = [];
const openStore = () => {
  const store = new GitStore({ dataDir });
  stores.push(store);
  return store;
};

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'specbase-direct-'));
  const store = openStore();
  gitdir = store.gitdir(ORG);
  cacheDir = store.cacheDir(ORG);
  artifacts = organizationArtifacts(ARTIFACTS, WORKSPACE);
  fastImport(gitdir, artifacts);
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  await rm(dataDir, { recursive: true, force: true });
});

/** Commits in a clone of the repository as another tool would, and pushes them to `main`. */
async function nativeCommits(
  work: (run: (...args: string[]) => string, clone: string) => Promise<void>,
): Promise<void> {
  const clone = await mkdtemp(path.join(tmpdir(), 'specbase-direct-clone-'));
  try {
    execFileSync('git', ['clone', '-q', gitdir, clone]);
    const run = (...args: string[]) =>
      execFileSync(
        'git',
        ['-C', clone, '-c', 'user.name=Native Tool', '-c', 'user.email=native@example.com', ...args],
        { encoding: 'utf8' },
      );
    await work(run, clone);
    run('push', '-q', 'origin', 'main');
  } finally {
    await rm(clone, { recursive: true, force: true });
  }
}

it('answers reads from Git while the catalog builds, exactly as the catalog answers them later', async () => {
  const [product, capability, feature, , requirement] = artifacts;
  const moved = artifacts.find((a) => a.type === 'acceptance_criterion')!;
  const movedAndEdited = artifacts.find((a) => a.type === 'page')!;
  const flat = (a: SeedArtifact) => `${a.path.split('/')[0]}/${path.basename(a.path)}`;
  // Two files moved out of their shards by hand: the store moves them back when it opens (the
  // layout migration), so both have former paths; only one is edited after.
  await nativeCommits(async (run) => {
    for (const a of [moved, movedAndEdited]) run('mv', a.path, flat(a));
    run('commit', '-qm', 'Move two files by hand');
  });
  const writer = openStore();
  expect((await writer.migrateLayout(ORG))?.moved).toBe(2);
  await writer.update(ORG, capability!.id, { body: '# Edited\n\nBy Bob.\n', verb: 'edit' }, bob);
  await writer.update(ORG, movedAndEdited.id, { body: '# Page\n\nEdited after the move.\n', verb: 'edit' }, alice);
  const created = await writer.create(
    ORG,
    { type: 'capability', parentId: product!.id, workspaceId: WORKSPACE, title: 'Created later', body: '# Later\n' },
    alice,
  );
  await writer.close();
  await nativeCommits(async (run, clone) => {
    const file = path.join(clone, feature!.path);
    await writeFile(file, `${await readFile(file, 'utf8')}\nA line added by hand.\n`);
    run('commit', '-qam', 'Edit a feature by hand');
  });
  await rm(cacheDir, { recursive: true, force: true });

  const ids = [
    product!.id,
    capability!.id,
    feature!.id,
    requirement!.id,
    moved.id,
    movedAndEdited.id,
    created.artifact.id,
  ];
  const store = openStore();
  let catalogReady = false;
  const catalog = store.catalog(ORG).then((all) => {
    catalogReady = true;
    return all;
  });
  // More reads at once than run git at once: the rest wait for a turn, not for the catalog.
  const [early, earlyMetas] = await Promise.all([
    Promise.all(ids.map((id) => store.read(ORG, id))),
    Promise.all(ids.map((id) => store.meta(ORG, id.toUpperCase()))),
  ]);
  expect(catalogReady).toBe(false);

  expect((await catalog).length).toBe(ARTIFACTS + 1);
  const late = await Promise.all(ids.map((id) => store.read(ORG, id)));
  expect(early).toEqual(late);
  expect(earlyMetas).toEqual(await Promise.all(ids.map((id) => store.meta(ORG, id))));
  // What the cases above are meant to cover, checked against the catalog's answers.
  expect(late[1]).toMatchObject({ body: '# Edited\n\nBy Bob.\n', updatedBy: bob.author });
  expect(late[2]).toMatchObject({ updatedBy: { name: 'Native Tool', email: 'native@example.com' } });
  expect(late[4]!.formerPaths).toEqual([flat(moved), moved.path]);
  expect(late[4]!.version).toBe(late[0]!.version);
  expect(late[5]).toMatchObject({ formerPaths: [flat(movedAndEdited), movedAndEdited.path], updatedBy: alice.author });
});

it('leaves what Git alone cannot answer to the catalog: an unknown id is not found once it is built', async () => {
  const store = openStore();
  const unknown = '00000000-0000-4000-8000-000000000000';
  await expect(store.read(ORG, unknown)).rejects.toBeInstanceOf(NotFoundError);
  expect(await store.meta(ORG, unknown)).toBeUndefined();
});

it('hands the search index every artifact as the cold build reads it, ending with exactly the catalog', async () => {
  const [product, capability] = artifacts;
  const writer = openStore();
  await writer.update(ORG, capability!.id, { body: '# Edited\n\nBy Bob.\n', verb: 'edit' }, bob);
  await writer.close();
  await rm(cacheDir, { recursive: true, force: true });

  const store = openStore();
  let catalogReady = false;
  const catalog = store.catalog(ORG).then((all) => {
    catalogReady = true;
    return all;
  });
  const taken = new Map<string, { title: string; body: string }>();
  let takenBeforeCatalog = 0;
  const result = await store.documents(ORG, async (records) => {
    if (!catalogReady) takenBeforeCatalog += records.length;
    for (const record of records) taken.set(record.id, { title: record.title, body: record.body });
  });
  expect(takenBeforeCatalog).toBeGreaterThan(ARTIFACTS / 2);
  const all = await store.readMany(ORG);
  expect([...result.ids].sort()).toEqual((await catalog).map((meta) => meta.id).sort());
  expect(result.version).toBe(await store.lastChange(ORG));
  expect(taken).toEqual(new Map(all.map((record) => [record.id, { title: record.title, body: record.body }])));
  expect(taken.get(capability!.id)?.body).toBe('# Edited\n\nBy Bob.\n');
  expect(taken.has(product!.id)).toBe(true);

  // An organization already open: everything is read from its catalog.
  const again = new Map<string, string>();
  await store.documents(ORG, async (records) => records.forEach((record) => again.set(record.id, record.body)));
  expect(again).toEqual(new Map(all.map((record) => [record.id, record.body])));
});
