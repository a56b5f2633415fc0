import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, MergeConflictError, NotFoundError } from '../../../src/errors.js';
import { changeRequestKey } from '../../../src/store/index.js';
import { alice, bob, capabilityInput, git, openStoreFixture, ORG, type StoreFixture } from './fixture.js';

let fx: StoreFixture;
beforeAll(async () => {
  fx = await openStoreFixture();
});
afterAll(async () => {
  await fx.close();
});

const edit = async (key: string, id: string, change: (body: string) => string, who = alice) => {
  const before = await fx.store.read(key, id);
  return fx.store.update(key, id, { body: change(before.body), verb: 'edit' }, who);
};

describe('change request branches in the store', () => {
  it('a branch forks at main; writes to it stay off main, and main listeners never hear of them', async () => {
    const heard: string[] = [];
    const stop = fx.store.onCommit((orgId, result) => heard.push(`${orgId}:${result.artifact.title}`));
    const fork = await fx.store.forkChangeRequest(ORG, 1);
    expect(git(fx.gitdir, 'rev-parse', 'cr/1')).toBe(fork);
    // The branch starts from main's saved state, not from a walk of all history.
    expect(existsSync(path.join(fx.cacheDir, 'cr', '1', 'state.db'))).toBe(true);
    const cr = changeRequestKey(ORG, 1);
    const created = await fx.store.create(cr, capabilityInput(fx.productId, 'Proposed search'), alice);
    await edit(cr, fx.productId, (body) => `${body}Proposed line.\n`);
    stop();
    expect(heard).toEqual([]);
    expect(git(fx.gitdir, 'rev-parse', 'main')).toBe(fork);
    expect(git(fx.gitdir, 'log', '--format=%an %s', 'main..cr/1').split('\n')).toEqual([
      'Alice Author Edit product: Acme',
      'Alice Author Create capability: Proposed search',
    ]);
    expect((await fx.store.read(cr, created.artifact.id)).title).toBe('Proposed search');
    await expect(fx.store.read(ORG, created.artifact.id)).rejects.toThrow(NotFoundError);
    expect((await fx.store.read(ORG, fx.productId)).body).not.toContain('Proposed line.');
    await expect(fx.store.forkChangeRequest(ORG, 1)).rejects.toThrow(ConflictError);

    const changes = await fx.store.changeRequestChanges(ORG, 1);
    expect(changes.base).toBe(fork);
    expect(changes.files.map((f) => [f.title, f.before === null, f.after === null])).toEqual([
      ['Proposed search', true, false],
      ['Acme', false, false],
    ]);
  });

  it('merges by fast-forward while main has not moved: each commit keeps its author', async () => {
    const heard: string[] = [];
    const stop = fx.store.onCommit((_orgId, result) => heard.push(result.artifact.title));
    const tip = await fx.store.changeRequestTip(ORG, 1);
    const merged = await fx.store.mergeChangeRequest(ORG, 1, { message: 'Merge change request 1' }, bob);
    stop();
    expect(merged).toMatchObject({ kind: 'fast-forward', commit: tip });
    expect(heard).toEqual(['Proposed search', 'Acme']);
    expect(git(fx.gitdir, 'rev-parse', 'main')).toBe(tip);
    expect((await fx.store.read(ORG, fx.productId)).body).toContain('Proposed line.');
    await expect(fx.store.mergeChangeRequest(ORG, 1, { message: 'again' }, bob)).rejects.toThrow(/already holds/);
  });

  it('merges with a merge commit when main moved, and refuses to guess where both changed a passage', async () => {
    await fx.store.forkChangeRequest(ORG, 2);
    await fx.store.forkChangeRequest(ORG, 3);
    const cr2 = changeRequestKey(ORG, 2);
    const cr3 = changeRequestKey(ORG, 3);
    await edit(cr2, fx.productId, (body) => body.replace('The product.', 'The product, as proposed.'));
    await edit(cr3, fx.productId, (body) => `${body}\nA closing line.\n`);
    await edit(ORG, fx.productId, (body) => body.replace('The product.', 'The product, as decided.'), bob);

    const conflict = await fx.store
      .mergeChangeRequest(ORG, 2, { message: 'Merge change request 2' }, bob)
      .catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(MergeConflictError);
    const [only] = (conflict as MergeConflictError).conflicts;
    expect(only).toMatchObject({ title: 'Acme', artifactId: fx.productId });
    expect(only!.withMarkers).toContain('<<<<<<< main');
    const mainBefore = git(fx.gitdir, 'rev-parse', 'main');
    expect((conflict as MergeConflictError).mainCommit).toBe(mainBefore);

    const merging = (text: string, resolvedOn = mainBefore) =>
      fx.store.mergeChangeRequest(
        ORG,
        2,
        { message: 'Merge change request 2', resolutions: new Map([[only!.path, text]]), resolvedOn },
        bob,
      );
    const withMarkers = await merging(only!.withMarkers).catch((error: unknown) => error);
    expect((withMarkers as MergeConflictError).conflicts[0]!.refused).toMatch(/still has conflict markers/);
    // Resolved against a main that has moved since: set aside, the conflict is raised again.
    await expect(merging(only!.main!, 'f'.repeat(40))).rejects.toThrow(MergeConflictError);
    expect(git(fx.gitdir, 'rev-parse', 'main')).toBe(mainBefore);

    const resolved = only!.main!.replace('as decided.', 'as decided and proposed.');
    const outcome = await merging(resolved);
    expect(outcome.kind).toBe('merge');
    expect(git(fx.gitdir, 'rev-parse', `${outcome.commit}^1`)).toBe(mainBefore);
    expect(git(fx.gitdir, 'rev-parse', `${outcome.commit}^2`)).toBe(git(fx.gitdir, 'rev-parse', 'cr/2'));
    expect((await fx.store.read(ORG, fx.productId)).body).toContain('as decided and proposed.');

    const clean = await fx.store.mergeChangeRequest(ORG, 3, { message: 'Merge change request 3' }, bob);
    expect(clean.kind).toBe('merge');
    const body = (await fx.store.read(ORG, fx.productId)).body;
    expect(body).toContain('as decided and proposed.');
    expect(body).toContain('A closing line.');
    expect(clean.results.map((r) => r.artifact.id)).toEqual([fx.productId]);
  });
});
