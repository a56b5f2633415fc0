import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { bob, capabilityInput, alice, git, openStoreFixture, ORG, type StoreFixture } from './fixture.js';

let fx: StoreFixture;
beforeEach(async () => {
  fx = await openStoreFixture();
});
afterEach(async () => {
  await fx.close();
});

it('never shows a ref reader anything but main while commits are being written', async () => {
  const { artifact } = await fx.store.create(ORG, capabilityInput(fx.productId, 'Busy capability'), alice);
  let writing = true;
  const seen = new Set<string>();
  const writer = (async () => {
    let body = artifact.body;
    for (let i = 0; i < 15; i++) {
      body += `line ${i}\n`;
      await fx.store.update(ORG, artifact.id, { body, verb: 'edit' }, bob);
    }
    writing = false;
  })();
  while (writing) {
    for (const entry of await readdir(path.join(fx.gitdir, 'refs', 'heads'))) seen.add(entry);
    for (const ref of git(fx.gitdir, 'for-each-ref', '--format=%(refname)').split('\n').filter(Boolean)) seen.add(ref);
  }
  await writer;
  expect([...seen].filter((name) => name !== 'main' && name !== 'main.lock' && name !== 'refs/heads/main')).toEqual([]);
});
