import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openServices } from '../../../src/app/services.js';
import { loadConfig } from '../../../src/config/index.js';
import { ensureDemo } from '../../../src/demo/seed.js';

let dataDir: string | undefined;
afterEach(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function snapshot(dir: string): Promise<Map<string, number>> {
  const files = new Map<string, number>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      files.set(path.join(entry.parentPath, entry.name), (await stat(path.join(entry.parentPath, entry.name))).mtimeMs);
  }
  return files;
}

it('closing the services persists the store index and stops every later write to the data directory', async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'specbase-services-'));
  const services = await openServices(loadConfig({ SPECBASE_DATA_DIR: dataDir, SPECBASE_LOG_LEVEL: 'silent' }));
  const { demo } = await ensureDemo(services);
  await services.close();
  expect((await stat(path.join(dataDir, 'cache', 'orgs', demo.orgId, 'state.db'))).size).toBeGreaterThan(0);
  const closed = await snapshot(dataDir);
  // Anything still writing on its own (a timer, a queued save) would show within this time.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  expect(await snapshot(dataDir)).toEqual(closed);
});
