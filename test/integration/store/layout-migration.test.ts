import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { setImmediate } from 'node:timers/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitStore } from '../../../src/store/index.js';
import { artifactCommit, artifactFile, folderCommit, writeFirstLayoutRepository } from './first-layout.js';
import { alice, bob, git, ORG, WORKSPACE } from './fixture.js';

const PRODUCT = '11111111-aaaa-4aaa-8aaa-000000000001';
const CAP = '3f2c9a1e-5b7d-4c3e-9f10-2a4b6c8d0e12';
const FEATURE = 'a0b1c2d3-0000-4000-8000-000000000003';
const GUIDES = 'c4d5e6f7-0000-4000-8000-000000000004';
const SETUP = 'd8e9f0a1-0000-4000-8000-000000000005';
const PAGE = 'e2f3a4b5-0000-4000-8000-000000000006';
const FAQ = 'f6a7b8c9-0000-4000-8000-000000000007';

const OLD = {
  cap: 'capabilities/payments-3f2c9a1e.md',
  feature: 'features/saved-cards-a0b1c2d3.md',
  guides: 'pages/guides/_folder.md',
  setup: 'pages/guides/set-up/_folder.md',
  page: 'pages/guides/set-up/install-e2f3a4b5.md',
  faq: 'pages/faq-f6a7b8c9.md',
};
const NEW = {
  cap: 'capabilities/3f/2c/payments-3f2c9a1e.md',
  feature: 'features/a0/b1/saved-cards-a0b1c2d3.md',
  guides: 'folders/c4/d5/guides-c4d5e6f7.md',
  setup: 'folders/d8/e9/set-up-d8e9f0a1.md',
  page: 'pages/e2/f3/install-e2f3a4b5.md',
  faq: 'pages/f6/a7/faq-f6a7b8c9.md',
};

const capBody = '# Payments\n\nPay by card.\n';
const capEdited = '# Payments\n\nPay by card.\nPay by bank transfer.\n';
const pageBody = '# Install\n\nRun the installer.\n';

/** Today's history of a small organization, in the first layout: creates by Alice, edits by Bob. */
function firstLayoutHistory() {
  return [
    artifactCommit(alice, 'create', {
      id: PRODUCT,
      type: 'product',
      parent: null,
      title: 'Acme',
      body: '# Acme\n',
      path: 'product.md',
    }),
    artifactCommit(alice, 'create', {
      id: CAP,
      type: 'capability',
      parent: PRODUCT,
      title: 'Payments',
      body: capBody,
      path: OLD.cap,
    }),
    artifactCommit(alice, 'create', {
      id: FEATURE,
      type: 'feature',
      parent: CAP,
      title: 'Saved cards',
      body: '# Saved cards\n',
      path: OLD.feature,
    }),
    folderCommit(alice, { id: GUIDES, name: 'Guides', parent: null, path: OLD.guides }),
    folderCommit(alice, { id: SETUP, name: 'Set up', parent: GUIDES, path: OLD.setup }),
    artifactCommit(alice, 'create', {
      id: PAGE,
      type: 'page',
      parent: SETUP,
      title: 'Install',
      body: pageBody,
      path: OLD.page,
    }),
    artifactCommit(alice, 'create', {
      id: FAQ,
      type: 'page',
      parent: null,
      title: 'FAQ',
      body: '# FAQ\n',
      path: OLD.faq,
    }),
    artifactCommit(bob, 'edit', {
      id: CAP,
      type: 'capability',
      parent: PRODUCT,
      title: 'Payments',
      body: capEdited,
      path: OLD.cap,
    }),
    artifactCommit(bob, 'edit', {
      id: PAGE,
      type: 'page',
      parent: SETUP,
      title: 'Install',
      body: `${pageBody}Then restart.\n`,
      path: OLD.page,
    }),
  ];
}

let dataDir: string;
let gitdir: string;
const stores: GitStore[] = [];
const openStore = () => {
  const store = new GitStore({ dataDir });
  stores.push(store);
  return store;
};
const lines = (text: string) => text.split('\n').filter(Boolean);

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'specbase-layout-'));
  gitdir = path.join(dataDir, 'orgs', `${ORG}.git`);
  writeFirstLayoutRepository(gitdir, firstLayoutHistory());
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  await rm(dataDir, { recursive: true, force: true });
});

describe('a repository in the first layout, opened by this version', () => {
  it('is moved to the sharded layout by one service-authored commit that only renames', async () => {
    const oldHead = git(gitdir, 'rev-parse', 'main');
    const migration = await openStore().migrateLayout(ORG);
    expect(migration).toEqual({ commit: git(gitdir, 'rev-parse', 'main'), moved: 6 });
    expect(git(gitdir, 'rev-parse', 'main^')).toBe(oldHead);
    expect(git(gitdir, 'log', '-1', '--format=%an <%ae>|%cn <%ce>|%s', 'main')).toBe(
      'Specbase <specbase@localhost>|Specbase <specbase@localhost>|Move the repository to the sharded layout (layout-v2)',
    );
    expect(git(gitdir, 'log', '-1', '--format=%(trailers:key=Specbase-Migration,valueonly)', 'main')).toBe('layout-v2');
    const renames = lines(git(gitdir, 'diff-tree', '-r', '-M', '--name-status', 'main^', 'main')).sort();
    expect(renames).toEqual(
      Object.keys(OLD)
        .map((k) => `R100\t${OLD[k as keyof typeof OLD]}\t${NEW[k as keyof typeof NEW]}`)
        .sort(),
    );
    expect(lines(git(gitdir, 'ls-tree', '-r', '--name-only', 'main')).sort()).toEqual(
      ['product.md', ...Object.values(NEW)].sort(),
    );
    git(gitdir, 'fsck', '--strict', '--no-dangling');
  });

  it("keeps each file's history and blame for a clone, and the store's own history of each artifact", async () => {
    const store = openStore();
    const before = await store.history(ORG, CAP);
    expect(before.map((h) => [h.verb, h.author.name])).toEqual([
      ['edit', 'Bob Builder'],
      ['create', 'Alice Author'],
    ]);
    expect(await store.meta(ORG, CAP)).toMatchObject({
      path: NEW.cap,
      version: before[0]!.commit,
      updatedBy: bob.author,
    });
    expect((await store.read(ORG, CAP)).body).toBe(capEdited);
    expect(await store.bodyAt(ORG, CAP, before[1]!.commit)).toBe(capBody);
    expect((await store.folders(ORG)).map((f) => [f.id, f.path, f.parentId])).toEqual([
      [GUIDES, NEW.guides, null],
      [SETUP, NEW.setup, GUIDES],
    ]);
    expect(await store.meta(ORG, PAGE)).toMatchObject({ path: NEW.page, parentId: SETUP });
    const feed = await store.activity(ORG, { limit: 50, workspaceIds: new Set([WORKSPACE]) });
    expect(feed).toHaveLength(7);
    expect(feed.map((h) => h.commit)).not.toContain(git(gitdir, 'rev-parse', 'main'));

    const clone = path.join(dataDir, 'clone');
    git(gitdir, 'clone', '-q', gitdir, clone);
    const inClone = (...args: string[]) => git(path.join(clone, '.git'), '--work-tree', clone, ...args);
    expect(lines(inClone('log', '--follow', '--format=%an|%s', '--', NEW.cap))).toEqual([
      'Specbase|Move the repository to the sharded layout (layout-v2)',
      'Bob Builder|Edit capability: Payments',
      'Alice Author|Create capability: Payments',
    ]);
    expect(lines(inClone('log', '--follow', '--format=%an', '--', NEW.page))).toEqual([
      'Specbase',
      'Bob Builder',
      'Alice Author',
    ]);
    const blame = inClone('blame', '--line-porcelain', '--', NEW.cap);
    const authors = lines(blame)
      .filter((l) => l.startsWith('author '))
      .map((l) => l.slice(7));
    expect(authors).not.toContain('Specbase');
    expect(authors.at(-1)).toBe('Bob Builder');
    expect(new Set(authors)).toEqual(new Set(['Alice Author', 'Bob Builder']));
  });

  it('reads, edits and creates in the new layout afterwards', async () => {
    const store = openStore();
    const edit = await store.update(ORG, CAP, { body: `${capEdited}Pay later.\n`, verb: 'edit' }, alice);
    expect(edit.artifact.path).toBe(NEW.cap);
    expect(git(gitdir, 'diff-tree', '-r', '--name-only', '--no-commit-id', edit.commit)).toBe(NEW.cap);
    expect((await store.history(ORG, CAP)).map((h) => h.verb)).toEqual(['edit', 'edit', 'create']);
    const page = await store.create(
      ORG,
      { type: 'page', parentId: GUIDES, workspaceId: 'w', title: 'Tips', body: '# Tips\n' },
      alice,
    );
    expect(page.artifact.path).toMatch(
      new RegExp(`^pages/${page.artifact.id.slice(0, 2)}/${page.artifact.id.slice(2, 4)}/tips-`),
    );
    expect(lines(git(gitdir, 'log', '--follow', '--format=%an', 'main', '--', NEW.cap))).toEqual([
      'Alice Author',
      'Specbase',
      'Bob Builder',
      'Alice Author',
    ]);
    git(gitdir, 'fsck', '--strict', '--no-dangling');
  });

  it('follows a file that another writer moved and changed in one commit as an edit of the same artifact', async () => {
    const store = openStore();
    const created = (await store.history(ORG, CAP)).at(-1)!;
    const elsewhere = 'capabilities/by-hand/payments.md';
    const content = git(gitdir, 'show', `main:${NEW.cap}`).replace(
      'Pay by bank transfer.',
      'Pay by bank transfer or card.',
    );
    const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
    execFileSync('git', ['--git-dir', gitdir, 'fast-import', '--quiet'], {
      input: `commit refs/heads/main\nauthor Carol <carol@example.com> 1800000000 +0000\ncommitter Carol <carol@example.com> 1800000000 +0000\n${data('Tidy by hand\n')}from refs/heads/main^0\nD ${NEW.cap}\nM 100644 inline ${elsewhere}\n${data(`${content}\n`)}`,
    });
    // A read sees what was committed before its turn of the event loop began (see
    // refStampThisTick); this commit was made within the turn of the read above.
    await setImmediate();
    const history = await store.history(ORG, CAP);
    expect(history.map((h) => [h.verb, h.author.name, h.added, h.removed])).toEqual([
      ['edit', 'Carol', 1, 1],
      ['edit', 'Bob Builder', 1, 0],
      ['create', 'Alice Author', 3, 0],
    ]);
    expect(await store.meta(ORG, CAP)).toMatchObject({ path: elsewhere, formerPaths: [NEW.cap, OLD.cap] });
    expect(await store.bodyAt(ORG, CAP, created.commit)).toBe(capBody);
  });

  it('is followed by a process that already had the organization open, as moves that emit nothing', async () => {
    const running = openStore();
    await running.migrateLayout(ORG);
    // A writer of the previous version (a replica not yet upgraded) adds a file in the first layout,
    // here named by hand with a space and quotes, which the migration must pass to git intact.
    const late = 'b7c8d9e0-0000-4000-8000-000000000008';
    const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
    const file = artifactFile({ id: late, type: 'capability', parent: PRODUCT, title: 'Refunds', body: '# Refunds\n' });
    execFileSync('git', ['--git-dir', gitdir, 'fast-import', '--quiet'], {
      input: `commit refs/heads/main\nauthor Alice Author <alice@example.com> 1800000000 +0000\ncommitter Specbase <specbase@localhost> 1800000000 +0000\n${data('Create capability: Refunds\n')}from refs/heads/main^0\nM 100644 inline "capabilities/refunds \\"v2\\" b7c8d9e0.md"\n${data(file)}`,
    });
    const handNamed = 'capabilities/refunds "v2" b7c8d9e0.md';
    expect(await running.meta(ORG, late)).toMatchObject({ path: handNamed });
    const seen: string[] = [];
    running.onCommit((_, result) => seen.push(result.artifact.id));
    expect(await openStore().migrateLayout(ORG)).toMatchObject({ moved: 1 });
    await running.refresh(ORG);
    expect(seen).toEqual([]);
    expect(await running.meta(ORG, late)).toMatchObject({
      path: 'capabilities/b7/c8/refunds "v2" b7c8d9e0.md',
      formerPaths: [handNamed],
    });
    expect((await running.history(ORG, late)).map((h) => h.verb)).toEqual(['create']);
    const edit = await running.update(ORG, late, { body: '# Refunds\n\nWithin 30 days.\n', verb: 'edit' }, bob);
    expect(edit.artifact.path).toBe('capabilities/b7/c8/refunds "v2" b7c8d9e0.md');
    expect(git(gitdir, 'show', `main:${edit.artifact.path}`)).toContain('Within 30 days.');
  });

  it('is migrated once: a second open, a rebuilt index and a concurrent opener do nothing more', async () => {
    // What a migration killed before its commit point leaves behind: its commit on a private ref.
    git(gitdir, 'update-ref', 'refs/specbase/layout-migration', 'main^');
    const [first, second] = await Promise.all([openStore().migrateLayout(ORG), openStore().migrateLayout(ORG)]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    const head = git(gitdir, 'rev-parse', 'main');
    expect(git(gitdir, 'rev-list', '--count', 'main')).toBe('10');
    expect(git(gitdir, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/main');
    git(gitdir, 'fsck', '--strict', '--no-dangling');
    await Promise.all(stores.splice(0).map((store) => store.close()));

    expect(await openStore().migrateLayout(ORG)).toBeUndefined();
    for (const suffix of ['', '-wal', '-shm'])
      await rm(path.join(dataDir, 'cache', 'orgs', ORG, `state.db${suffix}`), { force: true });
    const rebuilt = openStore();
    expect(await rebuilt.migrateLayout(ORG)).toBeUndefined();
    expect(git(gitdir, 'rev-parse', 'main')).toBe(head);
    // Rebuilt from history alone: the migration's renames are moves of the same artifacts.
    expect((await rebuilt.history(ORG, CAP)).map((h) => [h.verb, h.author.name])).toEqual([
      ['edit', 'Bob Builder'],
      ['create', 'Alice Author'],
    ]);
    expect(
      (await rebuilt.activity(ORG, { limit: 50, workspaceIds: new Set([WORKSPACE]) })).map((h) => h.commit),
    ).not.toContain(head);
    expect((await rebuilt.catalog(ORG)).map((m) => m.path).sort()).toEqual(
      ['product.md', NEW.cap, NEW.feature, NEW.page, NEW.faq].sort(),
    );
    expect((await rebuilt.folders(ORG)).map((f) => f.path)).toEqual([NEW.guides, NEW.setup]);
    const created = (await rebuilt.history(ORG, PAGE)).at(-1)!;
    expect(await rebuilt.bodyAt(ORG, PAGE, created.commit)).toBe(pageBody);
  });
});
