import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../../../src/sqlite/index.js';
import { GitStore } from '../../../src/store/index.js';
import { alice, bob, capabilityInput, git, openStoreFixture, ORG, type StoreFixture } from './fixture.js';

let fx: StoreFixture;
const extra: GitStore[] = [];
beforeEach(async () => {
  fx = await openStoreFixture();
});
afterEach(async () => {
  await Promise.all(extra.splice(0).map((store) => store.close()));
  await fx.close();
});

const stateFile = () => path.join(fx.cacheDir, 'state.db');
const restart = (cacheDir?: string) => {
  const store = new GitStore({ dataDir: fx.dataDir, ...(cacheDir ? { cacheDir } : {}) });
  extra.push(store);
  return store;
};
const rowCounts = async () => {
  const db = await openSqlite(stateFile(), { busyTimeoutMs: 5_000 });
  try {
    const count = (table: string) => db.prepare(`SELECT count(*) AS n FROM ${table}`).get<{ n: number }>()?.n;
    return { artifacts: count('artifacts'), entries: count('entries') };
  } finally {
    db.close();
  }
};

/** What a store knows, for comparing a restarted store with the one that wrote. */
async function knowledge(store: GitStore, ids: readonly string[]) {
  return {
    head: await store.head(ORG),
    catalog: await store.catalog(ORG),
    histories: await Promise.all(ids.map((id) => store.history(ORG, id))),
    bodies: await Promise.all(ids.map(async (id) => (await store.read(ORG, id)).body)),
  };
}

/** Two capabilities, one edited twice; returns their ids and the blob of the first version. */
async function seed() {
  const a = await fx.store.create(ORG, capabilityInput(fx.productId, 'Payments'), alice);
  const b = await fx.store.create(ORG, capabilityInput(fx.productId, 'Search'), alice);
  await fx.store.update(ORG, a.artifact.id, { body: '# Payments\n\nCards.\n', verb: 'edit' }, bob);
  await fx.store.update(ORG, a.artifact.id, { body: '# Payments\n\nCards and wallets.\n', verb: 'edit' }, bob);
  const firstBlob = git(fx.gitdir, 'rev-parse', `${a.commit}:${a.artifact.path}`);
  return { ids: [fx.productId, a.artifact.id, b.artifact.id], firstBlob, a };
}

describe('saved state', () => {
  it('restarts from it without reading old versions: history is there although an old blob is gone', async () => {
    const { ids, firstBlob } = await seed();
    const before = await knowledge(fx.store, ids);
    await fx.store.close();
    // A rebuild from Git would need this blob to count the lines of the first edit.
    await rm(path.join(fx.gitdir, 'objects', firstBlob.slice(0, 2), firstBlob.slice(2)));
    expect(await knowledge(restart(), ids)).toEqual(before);
  });

  it('grows by one history row per commit and keeps one row per artifact', async () => {
    const { a } = await seed();
    expect(await rowCounts()).toEqual({ artifacts: 3, entries: 5 });
    for (let i = 0; i < 5; i++)
      await fx.store.update(ORG, a.artifact.id, { body: `# Payments\n\nv${i}\n`, verb: 'edit' }, bob);
    expect(await rowCounts()).toEqual({ artifacts: 3, entries: 10 });
  });

  it('applies a commit made with native git while the service was down, and refresh() emits one made while it runs', async () => {
    const { ids, a } = await seed();
    await fx.store.close();
    const nativeCommit = (text: string) => {
      const work = path.join(fx.dataDir, `clone-${Date.now()}`);
      execFileSync('git', ['clone', '-q', fx.gitdir, work]);
      const file = path.join(work, a.artifact.path);
      const current = execFileSync('cat', [file], { encoding: 'utf8' });
      execFileSync('sh', ['-c', `cat > "${file}"`], { input: current.replace(/\n---\n[\s\S]*$/, `\n---\n${text}`) });
      const run = (...args: string[]) => execFileSync('git', ['-C', work, ...args], { encoding: 'utf8' });
      run('-c', 'user.name=Native', '-c', 'user.email=native@example.com', 'commit', '-qam', 'Edit by hand');
      run('push', '-q', 'origin', 'main');
      return run('rev-parse', 'HEAD').trim();
    };
    const first = nativeCommit('# Payments\n\nBy hand.\n');
    const restarted = restart();
    expect(await restarted.read(ORG, a.artifact.id)).toMatchObject({
      body: '# Payments\n\nBy hand.\n',
      version: first,
      updatedBy: { name: 'Native' },
    });
    expect((await restarted.history(ORG, a.artifact.id)).map((h) => h.commit)[0]).toBe(first);
    expect(await restarted.history(ORG, a.artifact.id)).toHaveLength(4);
    // The catch-up is saved in the write section after reads are served; a refresh waits for it.
    await restarted.refresh(ORG);
    expect((await rowCounts()).entries).toBe(6);

    const seen: string[] = [];
    restarted.onCommit((_org, result) => seen.push(result.commit));
    const second = nativeCommit('# Payments\n\nBy hand, twice.\n');
    await restarted.refresh(ORG);
    expect(seen).toEqual([second]);
    expect((await knowledge(restart(), ids)).head).toBe(second);
  });

  it('rebuilds from Git when the saved state is deleted, corrupted, or from a rewritten history', async () => {
    const { ids } = await seed();
    const before = await knowledge(fx.store, ids);
    await fx.store.close();

    await rm(stateFile());
    expect(await knowledge(restart(), ids)).toEqual(before);
    // The rebuilt state is saved in the background; closing waits for it.
    await extra.pop()!.close();
    expect(await rowCounts()).toEqual({ artifacts: 3, entries: 5 });

    await writeFile(stateFile(), 'not a database at all');
    await rm(`${stateFile()}-wal`, { force: true });
    await rm(`${stateFile()}-shm`, { force: true });
    expect(await knowledge(restart(), ids)).toEqual(before);
    await extra.pop()!.close();

    const db = await openSqlite(stateFile(), { busyTimeoutMs: 5_000 });
    db.prepare("UPDATE artifacts SET meta = '{broken'").run();
    db.close();
    expect(await knowledge(restart(), ids)).toEqual(before);
    await extra.pop()!.close();

    // main rewritten to an older commit: the saved head is no longer in its history.
    const older = before.histories[1]!.at(-1)!.commit;
    git(fx.gitdir, 'update-ref', 'refs/heads/main', older);
    const rewound = restart();
    expect((await rewound.catalog(ORG)).map((m) => m.title)).toEqual(['Acme', 'Payments']);
    expect(await rewound.head(ORG)).toBe(older);
  });

  it('saves a state built from Git a few seconds later, with the writes made before then, and loads it on the next start', async () => {
    const { ids, a } = await seed();
    await fx.store.close();
    await rm(stateFile());

    const rebuilt = restart();
    await rebuilt.catalog(ORG);
    // The first search is still building from the same reads: nothing is written yet.
    expect(existsSync(stateFile())).toBe(false);
    await rebuilt.update(
      ORG,
      a.artifact.id,
      { body: '# Payments\n\nCards, wallets and vouchers.\n', verb: 'edit' },
      bob,
    );
    expect(existsSync(stateFile())).toBe(false);
    const before = await knowledge(rebuilt, ids);

    // Opened only once it exists: opening it would make it.
    await expect.poll(() => existsSync(stateFile()), { timeout: 15_000 }).toBe(true);
    await expect.poll(rowCounts, { timeout: 15_000 }).toEqual({ artifacts: 3, entries: 6 });
    await extra.pop()!.close();

    // A blob the rebuild read is gone: only the saved state can know its history now.
    const firstBlob = git(fx.gitdir, 'rev-parse', `${before.histories[1]!.at(-1)!.commit}:${a.artifact.path}`);
    await rm(path.join(fx.gitdir, 'objects', firstBlob.slice(0, 2), firstBlob.slice(2)));
    expect(await knowledge(restart(), ids)).toEqual(before);
  });

  it('lives among the caches, not in the repository, where what an earlier version saved is removed on open', async () => {
    const { ids } = await seed();
    const before = await knowledge(fx.store, ids);
    await fx.store.close();
    expect(stateFile().startsWith(path.join(fx.dataDir, 'cache'))).toBe(true);
    expect(existsSync(stateFile())).toBe(true);
    const former = path.join(fx.gitdir, 'specbase');
    await mkdir(path.join(former, 'search', 'g-1'), { recursive: true });
    for (const name of ['state.db', 'state.db-wal', 'index.json'])
      await writeFile(path.join(former, name), 'saved by an earlier version');
    expect(await knowledge(restart(), ids)).toEqual(before);
    expect(readdirSync(former).filter((name) => name !== 'staging')).toEqual([]);

    // Another cache directory (a replica's own): nothing there yet, so built from Git and saved there.
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'specbase-cache-'));
    try {
      const replica = restart(elsewhere);
      expect(await knowledge(replica, ids)).toEqual(before);
      await extra.pop()!.close();
      expect(existsSync(path.join(elsewhere, 'orgs', ORG, 'state.db'))).toBe(true);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('builds from a packed repository (after git gc) with no saved state', async () => {
    const { ids } = await seed();
    const before = await knowledge(fx.store, ids);
    await fx.store.close();
    await rm(stateFile());
    git(fx.gitdir, 'gc', '-q', '--prune=now');
    expect(git(fx.gitdir, 'count-objects', '-v')).toMatch(/^count: 0$/m);
    expect(await knowledge(restart(), ids)).toEqual(before);
  });
});
