import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConflictError } from '../../../src/errors.js';
import { GitStore } from '../../../src/store/index.js';
import { alice, bob, capabilityInput, git, openStoreFixture, ORG, type StoreFixture } from './fixture.js';

let fx: StoreFixture;
beforeEach(async () => {
  fx = await openStoreFixture();
});
afterEach(async () => {
  await fx.close();
});

/** Read, append a line, write with expectedVersion; on a lost race, read again (as the domain does). */
async function appendLine(store: GitStore, id: string, line: string): Promise<string> {
  for (;;) {
    const current = await store.read(ORG, id);
    try {
      const result = await store.update(
        ORG,
        id,
        { body: `${current.body}${line}\n`, verb: 'edit', expectedVersion: current.version },
        bob,
      );
      return result.commit;
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
  }
}

function expectCleanRepository(commits: readonly string[]) {
  git(fx.gitdir, 'fsck', '--strict', '--no-dangling');
  const log = new Set(git(fx.gitdir, 'rev-list', '--first-parent', 'main').split('\n'));
  for (const commit of commits) expect(log.has(commit)).toBe(true);
}

describe.each([
  ['one GitStore', (): [GitStore, GitStore] => [fx.store, fx.store]],
  [
    'two GitStore instances on one data directory',
    (): [GitStore, GitStore] => [fx.store, new GitStore({ dataDir: fx.dataDir })],
  ],
])('concurrent writes through %s', (_name, stores) => {
  it('keeps all 50 parallel edits to different artifacts', async () => {
    const [first, second] = stores();
    const created = [];
    for (let i = 0; i < 50; i++)
      created.push((await fx.store.create(ORG, capabilityInput(fx.productId, `Cap ${i}`), alice)).artifact);
    const results = await Promise.all(
      created.map((artifact, i) =>
        (i % 2 ? second : first).update(ORG, artifact.id, { body: `${artifact.body}edit ${i}\n`, verb: 'edit' }, bob),
      ),
    );
    expect(new Set(results.map((r) => r.commit)).size).toBe(50);
    expectCleanRepository(results.map((r) => r.commit));
    for (const [i, artifact] of created.entries()) {
      const history = await first.history(ORG, artifact.id);
      expect(history.map((h) => h.commit)).toEqual([results[i]!.commit, history[1]!.commit]);
      expect((await second.read(ORG, artifact.id)).body).toContain(`edit ${i}\n`);
    }
    expect(Number(git(fx.gitdir, 'rev-list', '--count', 'main'))).toBe(1 + 50 + 50);
  });

  it('loses none of 20 parallel edits to the same artifact', async () => {
    const [first, second] = stores();
    const cap = await fx.store.create(ORG, capabilityInput(fx.productId, 'Busy'), alice);
    const blind = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? second : first).update(ORG, cap.artifact.id, { body: `# Busy\n\nversion ${i}\n`, verb: 'edit' }, bob),
      ),
    );
    const history = await second.history(ORG, cap.artifact.id);
    expect(history.map((h) => h.commit).sort()).toEqual([...blind.map((r) => r.commit), cap.commit].sort());
    expect(history[0]!.commit).toBe(git(fx.gitdir, 'rev-parse', 'main'));

    const appended = await Promise.all(
      Array.from({ length: 20 }, (_, i) => appendLine(i % 2 ? second : first, cap.artifact.id, `line ${i}`)),
    );
    const body = (await first.read(ORG, cap.artifact.id)).body;
    for (let i = 0; i < 20; i++) expect(body).toContain(`line ${i}\n`);
    expect((await first.history(ORG, cap.artifact.id)).length).toBe(41);
    expectCleanRepository([...blind.map((r) => r.commit), ...appended]);
  });
});
