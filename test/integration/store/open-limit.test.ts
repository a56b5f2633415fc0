import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitStore, NO_FSYNC } from '../../../src/store/index.js';
import { alice, bob, capabilityInput, WORKSPACE } from './fixture.js';

let dataDir: string;
let store: GitStore;
const closed: string[] = [];

/** A store that holds at most `maxOpenOrgs` organizations, and `count` organizations made by another store. */
async function openLimited(count: number, limits: { maxOpenOrgs?: number; orgIdleMs?: number }) {
  const maker = new GitStore({ dataDir, durability: NO_FSYNC });
  const orgs: { id: string; productId: string }[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const init = await maker.initOrganization(
      id,
      { productTitle: `Org ${i}`, productBody: `# Org ${i}\n\nWord${i}.\n`, workspaceId: WORKSPACE },
      alice,
    );
    orgs.push({ id, productId: init.artifact.id });
  }
  await maker.close();
  store = new GitStore({ dataDir, ...limits });
  store.onOrganizationClosed((orgId) => closed.push(orgId));
  return orgs;
}

const fdCount = () =>
  Number(execFileSync('sh', ['-c', `ls /proc/${process.pid}/fd | wc -l`], { encoding: 'utf8' }).trim());
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

/** A commit made by native git in a clone, pushed to the organization's repository. */
function nativeEdit(gitdir: string, file: string, body: string): string {
  const work = path.join(dataDir, `clone-${randomUUID()}`);
  execFileSync('git', ['clone', '-q', gitdir, work]);
  const current = execFileSync('cat', [path.join(work, file)], { encoding: 'utf8' });
  execFileSync('sh', ['-c', `cat > "${path.join(work, file)}"`], {
    input: current.replace(/\n---\n[\s\S]*$/, `\n---\n${body}`),
  });
  const run = (...args: string[]) => execFileSync('git', ['-C', work, ...args], { encoding: 'utf8' });
  run('-c', 'user.name=Native', '-c', 'user.email=native@example.com', 'commit', '-qam', 'Edit by hand');
  run('push', '-q', 'origin', 'main');
  return run('rev-parse', 'HEAD').trim();
}

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'specbase-open-limit-'));
  closed.length = 0;
});
afterEach(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a bounded set of open organizations', () => {
  it('closes the least recently used past the limit, releasing its descriptors, and reopens it with what native git committed meanwhile', async () => {
    const orgs = await openLimited(30, { maxOpenOrgs: 5 });
    for (const org of orgs.slice(0, 5)) await store.catalog(org.id);
    await settle();
    const fdsAtLimit = fdCount();
    for (const org of orgs.slice(5)) await store.catalog(org.id);
    await settle();
    expect(store.openOrganizations()).toHaveLength(5);
    expect(store.openOrganizations()).toEqual(orgs.slice(25).map((org) => org.id));
    expect(closed).toEqual(orgs.slice(0, 25).map((org) => org.id));
    // Each organization open holds its saved state's connections: 25 more would be over 100 descriptors.
    expect(fdCount() - fdsAtLimit).toBeLessThan(15);

    const first = orgs[0]!;
    const product = await store.meta(orgs[29]!.id, orgs[29]!.productId);
    const commit = nativeEdit(store.gitdir(first.id), product!.path, '# Org 0\n\nEdited by hand while closed.\n');
    expect(store.isOpen(first.id)).toBe(false);
    expect(await store.read(first.id, first.productId)).toMatchObject({
      body: '# Org 0\n\nEdited by hand while closed.\n',
      version: commit,
    });
    expect((await store.history(first.id, first.productId)).map((entry) => entry.commit)).toEqual([
      commit,
      expect.any(String),
    ]);
    // It reopened from its saved state, written when it closed.
    expect(await readFile(path.join(store.cacheDir(first.id), 'state.db')).then((data) => data.length > 0)).toBe(true);
  });

  it('keeps an organization with a write under way or a stream open, and closes it once they end', async () => {
    const orgs = await openLimited(8, { maxOpenOrgs: 2 });
    const [writing, streaming, ...others] = orgs;
    const release = store.hold(streaming!.id);
    let proceed!: () => void;
    const gate = new Promise<void>((resolve) => (proceed = resolve));
    const capability = await store.create(writing!.id, capabilityInput(writing!.productId, 'Payments'), alice);
    const edit = store.update(
      writing!.id,
      capability.artifact.id,
      {
        verb: 'edit',
        body: async () => {
          await gate;
          return '# Payments\n\nWritten while others opened.\n';
        },
      },
      bob,
    );
    await settle();
    for (const org of others) await store.catalog(org.id);
    await settle();
    expect(store.isOpen(writing!.id)).toBe(true);
    expect(store.isOpen(streaming!.id)).toBe(true);
    // Both held: each organization used since was the one closed.
    expect(closed).toEqual(others.map((org) => org.id));
    proceed();
    const result = await edit;
    await settle();
    expect(store.isOpen(streaming!.id)).toBe(true);
    release();
    for (const org of others.slice(0, 2)) await store.catalog(org.id);
    await settle();
    expect(store.isOpen(streaming!.id)).toBe(false);
    expect(store.openOrganizations().length).toBeLessThanOrEqual(2);
    expect(await store.read(writing!.id, capability.artifact.id)).toMatchObject({
      body: '# Payments\n\nWritten while others opened.\n',
      version: result.commit,
    });
  });

  it('closes organizations nobody used for the idle time', async () => {
    const orgs = await openLimited(3, { orgIdleMs: 300 });
    for (const org of orgs) await store.catalog(org.id);
    expect(store.openOrganizations()).toHaveLength(3);
    await expect.poll(() => store.openOrganizations().length, { timeout: 5_000 }).toBe(0);
    expect(await store.catalog(orgs[1]!.id)).toHaveLength(1);
  });
});
