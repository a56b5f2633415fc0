import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openServices, type Services } from '../../../src/app/services.js';
import { loadConfig } from '../../../src/config/index.js';
import { ensureDemo } from '../../../src/demo/seed.js';

let dataDir: string | undefined;
const open: Services[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((services) => services.close()));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const start = async (dir: string) => {
  const services = await openServices(loadConfig({ SPECBASE_DATA_DIR: dir, SPECBASE_LOG_LEVEL: 'silent' }));
  open.push(services);
  return services;
};

it('keeps the search index across a restart, with edits made meanwhile by native git; a search right after an edit sees it', async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'specbase-search-restart-'));
  const first = await start(dataDir);
  const { demo } = await ensureDemo(first);
  const orgId = demo.orgId;
  const workspaceIds = new Set((await first.control.workspaces.list(orgId)).map((w) => w.id));
  const find = async (services: Services, text: string) =>
    (
      await (
        await services.search.forOrg(orgId)
      )
        .search({ query: text, workspaceIds, limit: 10 })
        .then((answer) => answer.hits)
    ).map((hit) => hit.id);

  const [feature] = (await first.store.view(orgId)).ofType('feature', workspaceIds);
  expect(feature).toBeDefined();
  await find(first, 'product');
  const edit = await first.store.update(
    orgId,
    feature!.id,
    { body: `# ${feature!.title}\n\nZebracorn checkout.\n`, verb: 'edit' },
    {
      author: { name: 'Ana', email: 'ana@example.com' },
    },
  );
  expect(await find(first, 'zebracorn')).toEqual([feature!.id]);
  await first.close();
  open.splice(0);
  const gitdir = first.store.gitdir(orgId);
  const manifest = JSON.parse(
    await readFile(path.join(first.store.cacheDir(orgId), 'search', 'current.json'), 'utf8'),
  ) as { version: string };
  expect(manifest.version).toBe(edit.commit);

  // While the service is down, an engineer commits with plain git.
  const work = path.join(dataDir, 'work');
  execFileSync('git', ['clone', '-q', gitdir, work]);
  const file = path.join(work, feature!.path);
  await writeFile(file, (await readFile(file, 'utf8')).replace('Zebracorn checkout.', 'Quokka checkout.'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', work, '-c', 'user.name=Eng', '-c', 'user.email=eng@example.com', ...args]);
  git('commit', '-qam', 'Rename the mascot');
  git('push', '-q', 'origin', 'main');

  const second = await start(dataDir);
  expect(await find(second, 'quokka')).toEqual([feature!.id]);
  expect(await find(second, 'zebracorn')).toEqual([]);
});
