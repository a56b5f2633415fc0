import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../../../src/sqlite/index.js';
import { GitStore } from '../../../src/store/index.js';
import { alice, bob, capabilityInput, git, openStoreFixture, ORG, type StoreFixture } from './fixture.js';

let fx: StoreFixture;
const extra: GitStore[] = [];
let warnings: { message: string; data?: Record<string, unknown> }[];
beforeEach(async () => {
  fx = await openStoreFixture();
  warnings = [];
});
afterEach(async () => {
  await Promise.all(extra.splice(0).map((store) => store.close()));
  await fx.close();
});

const restart = () => {
  const store = new GitStore({
    dataDir: fx.dataDir,
    log: (_level, message, data) => warnings.push({ message, ...(data ? { data } : {}) }),
  });
  extra.push(store);
  return store;
};

/** What a store answers: the listing, every artifact read, and their histories. */
async function knowledge(store: GitStore, ids: readonly string[]) {
  return {
    head: await store.head(ORG),
    catalog: await store.catalog(ORG),
    records: await Promise.all(ids.map((id) => store.read(ORG, id))),
    histories: await Promise.all(ids.map((id) => store.history(ORG, id))),
  };
}

/** Two capabilities, the first edited; their ids and the blob of the first one's first version. */
async function seed() {
  const a = await fx.store.create(ORG, capabilityInput(fx.productId, 'Payments'), alice);
  const b = await fx.store.create(ORG, capabilityInput(fx.productId, 'Search'), alice);
  await fx.store.update(ORG, a.artifact.id, { body: '# Payments\n\nCards and wallets.\n', verb: 'edit' }, bob);
  const firstBlob = git(fx.gitdir, 'rev-parse', `${a.commit}:${a.artifact.path}`);
  return { ids: [fx.productId, a.artifact.id, b.artifact.id], a: a.artifact, b: b.artifact, firstBlob };
}

/** Changes the saved state's rows with SQLite, as a stray tool or a bug could. */
async function tamper(sql: string, ...params: string[]) {
  const db = await openSqlite(path.join(fx.cacheDir, 'state.db'), { busyTimeoutMs: 5_000 });
  try {
    expect(db.prepare(sql).run(...params)).toBeGreaterThan(0);
  } finally {
    db.close();
  }
}

describe('a saved state that disagrees with the repository', () => {
  it('is rebuilt from Git, and says so: a row deleted, a path, a blob changed, a row for a file not in the tree', async () => {
    const { ids, a, b, firstBlob } = await seed();
    const before = await knowledge(fx.store, ids);
    await fx.store.close();
    const cases: [string, () => Promise<void>, RegExp][] = [
      [
        'a row deleted',
        () => tamper('DELETE FROM artifacts WHERE id = ?', b.id),
        new RegExp(`^${b.path} in [0-9a-f]{40} \\(id ${b.id}\\) is not saved$`),
      ],
      [
        'a path changed',
        () =>
          tamper(
            "UPDATE artifacts SET meta = json_set(meta, '$.path', 'capabilities/00/00/elsewhere.md') WHERE id = ?",
            a.id,
          ),
        /^artifact .* is saved at capabilities\/00\/00\/elsewhere\.md, which is not in the tree of/,
      ],
      [
        'a blob changed',
        () => tamper('UPDATE artifacts SET blob = ? WHERE id = ?', firstBlob, a.id),
        new RegExp(`^artifact ${a.id} is saved with blob ${firstBlob}`),
      ],
      [
        'a row for a file not in the tree',
        () =>
          tamper(
            `INSERT INTO artifacts (id, rank, blob, meta) SELECT '00000000-0000-4000-8000-000000000000', 99, blob,
               json_set(meta, '$.id', '00000000-0000-4000-8000-000000000000', '$.path', 'capabilities/00/00/ghost-00000000.md')
             FROM artifacts WHERE id = ?`,
            a.id,
          ),
        /^artifact 00000000-0000-4000-8000-000000000000 is saved at capabilities\/00\/00\/ghost-00000000\.md/,
      ],
    ];
    for (const [what, change, reason] of cases) {
      await change();
      warnings = [];
      expect(await knowledge(restart(), ids), what).toEqual(before);
      expect(warnings, what).toEqual([
        {
          message: 'the saved state disagrees with the repository: rebuilding it from Git',
          data: { orgId: ORG, mismatch: expect.stringMatching(reason) },
        },
      ]);
      // Closing saves the state rebuilt from Git, which the next case tampers with again.
      await extra.pop()!.close();
    }
  });
});

describe('a saved state that agrees with the repository', () => {
  it('is loaded, not rebuilt, also beside files the catalog leaves out (a broken one, a second file of a known id)', async () => {
    const { ids, a, firstBlob } = await seed();
    await fx.store.close();
    // Pushed with native git while the service is down: files that the catalog built from Git leaves out too.
    const work = path.join(fx.dataDir, 'clone');
    execFileSync('git', ['clone', '-q', fx.gitdir, work]);
    mkdirSync(path.join(work, 'notes'));
    writeFileSync(path.join(work, 'notes', 'readme.md'), 'Notes without frontmatter.\n');
    writeFileSync(path.join(work, path.dirname(a.path), 'copy-of-payments.md'), readFileSync(path.join(work, a.path)));
    const run = (...args: string[]) => execFileSync('git', ['-C', work, ...args], { encoding: 'utf8' });
    run('add', '-A');
    run('-c', 'user.name=Native', '-c', 'user.email=native@example.com', 'commit', '-qm', 'Files by hand');
    run('push', '-q', 'origin', 'main');

    const caughtUp = restart();
    const before = await knowledge(caughtUp, ids);
    expect(before.catalog.map((meta) => meta.title)).toEqual(['Acme', 'Payments', 'Search']);
    await extra.pop()!.close();

    // A rebuild from Git would need this blob to count the lines of the first edit.
    await rm(path.join(fx.gitdir, 'objects', firstBlob.slice(0, 2), firstBlob.slice(2)));
    expect(await knowledge(restart(), ids)).toEqual(before);
    expect(warnings).toEqual([]);
  });
});
