import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { FSYNC, GitStore, type Durability } from '../../../src/store/index.js';
import { alice, capabilityInput, git, ORG, WORKSPACE } from './fixture.js';

/** The real fsync, with a record of what it flushed and when, relative to the write's acknowledgement. */
function recordingFsync(base: Durability) {
  const events: { kind: 'file' | 'dir'; path: string }[] = [];
  const durability: Durability = {
    async syncFile(file, target) {
      await base.syncFile(file, target);
      events.push({ kind: 'file', path: target });
    },
    async syncPath(target) {
      await base.syncPath(target);
      events.push({ kind: statSync(target).isDirectory() ? 'dir' : 'file', path: target });
    },
  };
  return { durability, events };
}

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'specbase-durability-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** Loose object files a commit added: every object reachable from it and not from its parent. */
function objectFilesOf(gitdir: string, commit: string): string[] {
  const oids = git(gitdir, 'rev-list', '--objects', commit, '--not', `${commit}^`)
    .split('\n')
    .map((line) => line.slice(0, 40));
  return oids.map((oid) => path.join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2)));
}

it('an acknowledged edit has every new object, its directory, main and refs/heads flushed before the answer', async () => {
  const { durability, events } = recordingFsync(FSYNC);
  const store = new GitStore({ dataDir, durability });
  try {
    const init = await store.initOrganization(
      ORG,
      { productTitle: 'Acme', productBody: '# Acme\n', workspaceId: WORKSPACE },
      alice,
    );
    const created = await store.create(ORG, capabilityInput(init.artifact.id, 'Payments'), alice);
    events.length = 0;
    const edit = await store.update(
      ORG,
      created.artifact.id,
      { body: '# Payments\n\nCards and wallets.\n', verb: 'edit' },
      alice,
    );
    const flushed = [...events];

    const gitdir = store.gitdir(ORG);
    const files = objectFilesOf(gitdir, edit.commit);
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) {
      expect(flushed).toContainEqual({ kind: 'file', path: file });
      expect(flushed).toContainEqual({ kind: 'dir', path: path.dirname(file) });
    }
    const mainRef = path.join(gitdir, 'refs/heads/main');
    expect(flushed).toContainEqual({ kind: 'file', path: mainRef });
    expect(flushed.at(-1)).toEqual({ kind: 'dir', path: path.dirname(mainRef) });
    const refFlush = flushed.findIndex((e) => e.kind === 'file' && e.path === mainRef);
    for (const file of files) expect(flushed.findIndex((e) => e.path === file)).toBeLessThan(refFlush);
    expect(git(gitdir, 'rev-parse', 'main')).toBe(edit.commit);
  } finally {
    await store.close();
  }
});

it('SPECBASE_FSYNC is on unless turned off, and anything else is refused by name', () => {
  expect(loadConfig({}).fsync).toBe(true);
  expect(loadConfig({ SPECBASE_FSYNC: 'off' }).fsync).toBe(false);
  expect(() => loadConfig({ SPECBASE_FSYNC: 'maybe' })).toThrow(/SPECBASE_FSYNC/);
});
