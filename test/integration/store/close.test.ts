import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { alice, capabilityInput, openStoreFixture, ORG, type StoreFixture } from './fixture.js';

let fx: StoreFixture;
beforeEach(async () => {
  fx = await openStoreFixture();
});
afterEach(async () => {
  await fx.close();
});

async function snapshot(dir: string): Promise<Map<string, number>> {
  const files = new Map<string, number>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(file, (await stat(file)).mtimeMs);
  }
  return files;
}

it('close() leaves the saved state on disk and leaves nothing writing into the repository or the caches afterwards', async () => {
  await fx.store.create(ORG, capabilityInput(fx.productId, 'Written just before close'), alice);
  await fx.store.close();
  const indexFile = path.join(fx.cacheDir, 'state.db');
  expect((await stat(indexFile)).size).toBeGreaterThan(0);
  const closed = await snapshot(fx.dataDir);
  // Anything still writing on its own (a timer, a queued save) would show within this time.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  expect(await snapshot(fx.dataDir)).toEqual(closed);
});
