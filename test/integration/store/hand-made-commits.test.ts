import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitStore, NO_FSYNC } from '../../../src/store/index.js';

const exec = promisify(execFile);
const ctx = { author: { name: 'Ana', email: 'ana@example.com' }, client: 'test' };
const ORG = '5b0c1a8e-3f4d-4c2b-9e7a-0d1c2b3a4f5e';

/**
 * Commits an engineer makes carry no Specbase trailers and may start with any word: the catalog
 * reads what they did from the files (create, edit, move, delete, restore) and keeps their author.
 */
describe('the catalog follows commits made by hand', () => {
  let dir: string;
  let store: GitStore;
  let work: string;
  const git = (...args: string[]) =>
    exec('git', ['-C', work, '-c', 'user.name=Eve Engineer', '-c', 'user.email=eve@example.com', ...args], {
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
    });
  const commitAndLand = async (message: string) => {
    await git('add', '-A');
    await git('commit', '-qm', message);
    await git('push', '-q', 'origin', 'HEAD:main');
    await store.refresh(ORG);
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'specbase-hand-made-'));
    store = new GitStore({ dataDir: dir, durability: NO_FSYNC });
    await store.initOrganization(ORG, { productTitle: 'Acme', productBody: '# Acme\n', workspaceId: 'ws' }, ctx);
    work = path.join(dir, 'work');
    await exec('git', ['clone', '-q', store.gitdir(ORG), work]);
  });
  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('infers the verb of each change from the files, whatever the subject says, and keeps the author', async () => {
    const product = (await store.catalog(ORG))[0]!;
    const one = await store.create(
      ORG,
      { type: 'capability', parentId: product.id, workspaceId: 'ws', title: 'One', body: '# One\n' },
      ctx,
    );
    const two = await store.create(
      ORG,
      { type: 'capability', parentId: product.id, workspaceId: 'ws', title: 'Two', body: '# Two\n' },
      ctx,
    );
    const feature = await store.create(
      ORG,
      { type: 'feature', parentId: one.artifact.id, workspaceId: 'ws', title: 'F', body: '# F\n' },
      ctx,
    );
    await git('pull', '-q', 'origin', 'main');
    const featureFile = path.join(work, feature.artifact.path);

    await writeFile(featureFile, `${await readFile(featureFile, 'utf8')}\nMore.\n`);
    await commitAndLand('Move the intro up');
    await writeFile(featureFile, (await readFile(featureFile, 'utf8')).replace(one.artifact.id, two.artifact.id));
    await commitAndLand('Tidy up');
    const kept = await readFile(featureFile, 'utf8');
    await unlink(featureFile);
    await commitAndLand('Restore order');
    await writeFile(featureFile, kept);
    await commitAndLand('Edit: bring it back');

    const history = await store.history(ORG, feature.artifact.id);
    expect(history.map((e) => [e.verb, e.author.name, e.message.split('\n')[0], e.client])).toEqual([
      ['restore', 'Eve Engineer', 'Edit: bring it back', 'git'],
      ['delete', 'Eve Engineer', 'Restore order', 'git'],
      ['move', 'Eve Engineer', 'Tidy up', 'git'],
      ['edit', 'Eve Engineer', 'Move the intro up', 'git'],
      ['create', 'Ana', 'Create feature: F', 'test'],
    ]);
    expect(await store.meta(ORG, feature.artifact.id)).toMatchObject({ parentId: two.artifact.id });
  });

  it('follows a long run of them (read by native git in bulk) as it follows a short one', async () => {
    const product = (await store.catalog(ORG))[0]!;
    await git('pull', '-q', 'origin', 'main');
    const productFile = path.join(work, product.path);
    for (let i = 0; i < 20; i++) {
      await writeFile(productFile, `${await readFile(productFile, 'utf8')}\nLine ${i}.\n`);
      await git('commit', '-qam', `Line ${i}`);
    }
    await git('push', '-q', 'origin', 'HEAD:main');
    await store.refresh(ORG);
    const history = await store.history(ORG, product.id);
    expect(history.slice(0, 20).map((e) => [e.verb, e.message.split('\n')[0], e.added])).toEqual(
      Array.from({ length: 20 }, (_, i) => ['edit', `Line ${19 - i}`, 2]),
    );
    expect((await store.read(ORG, product.id)).body).toContain('Line 19.');
  });
});
