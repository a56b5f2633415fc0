import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { GitStore } from '../../../src/store/index.js';
import { alice, bob, capabilityInput, openStoreFixture, ORG, type StoreFixture } from './fixture.js';

let fx: StoreFixture;
beforeEach(async () => {
  fx = await openStoreFixture();
});
afterEach(async () => {
  await fx.close();
});

it('reads many artifacts with their current bodies in creation order, leaving out unknown ids and broken files', async () => {
  const a = await fx.store.create(ORG, capabilityInput(fx.productId, 'Payments'), alice);
  const b = await fx.store.create(ORG, capabilityInput(fx.productId, 'Search'), alice);
  await fx.store.update(ORG, a.artifact.id, { body: '# Payments\n\nCards.\n', verb: 'edit' }, bob);
  const all = await fx.store.readMany(ORG);
  expect(all).toEqual(
    await Promise.all([fx.productId, a.artifact.id, b.artifact.id].map((id) => fx.store.read(ORG, id))),
  );
  expect((await fx.store.readMany(ORG, [b.artifact.id.toUpperCase(), 'nope'])).map((r) => r.title)).toEqual(['Search']);

  // Another writer breaks one file's frontmatter: the others are still read.
  const clone = await mkdtemp(path.join(tmpdir(), 'specbase-clone-'));
  try {
    execFileSync('git', ['clone', '-q', fx.gitdir, clone]);
    const file = path.join(clone, b.artifact.path);
    await writeFile(file, (await readFile(file, 'utf8')).replace('---\n', '---\nid: [unclosed\n'));
    const run = (...args: string[]) =>
      execFileSync('git', ['-C', clone, '-c', 'user.name=M', '-c', 'user.email=m@example.com', ...args]);
    run('commit', '-qam', 'Break a file');
    run('push', '-q', 'origin', 'main');
    const fresh = new GitStore({ dataDir: fx.dataDir });
    expect((await fresh.readMany(ORG)).map((r) => r.title)).toEqual(['Acme', 'Payments']);
    await fresh.close();
  } finally {
    await rm(clone, { recursive: true, force: true });
  }
});
