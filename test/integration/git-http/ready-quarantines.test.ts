import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { ReadyQuarantines } from '../../../src/git-http/ready-quarantines.js';
import { git } from '../../support/git.js';

describe('quarantines made ready for a pack still to come', () => {
  let gitdir: string;
  const limits = loadConfig({}).push;
  const incoming = async () =>
    (await readdir(path.join(gitdir, 'objects'))).filter((name) => name.startsWith('tmp_objdir-incoming-'));
  /** Processes whose command line names this repository and unpack-objects: the waiting unpackers. */
  const unpackers = async () => {
    const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
    const commands = await Promise.all(pids.map((pid) => readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')));
    return commands.filter((command) => command.includes(gitdir) && command.includes('unpack-objects')).length;
  };

  beforeAll(async () => {
    gitdir = await mkdtemp(path.join(tmpdir(), 'specbase-ready-'));
    await git(gitdir, 'init', '-q', '--bare');
  });
  afterAll(async () => {
    await rm(gitdir, { recursive: true, force: true });
  });

  it('keeps one waiting per repository, and stops and removes it on close', async () => {
    const ready = new ReadyQuarantines(limits);
    ready.prepare(gitdir);
    ready.prepare(gitdir);
    await vi.waitFor(async () => expect(await unpackers()).toBe(1));
    expect(await incoming()).toHaveLength(1);
    await ready.close();
    expect(await incoming()).toEqual([]);
    await vi.waitFor(async () => expect(await unpackers()).toBe(0));
    ready.prepare(gitdir);
    expect(await incoming()).toEqual([]);
  });

  it('stops and removes one not taken within its wait, and makes a fresh one when none waits', async () => {
    const ready = new ReadyQuarantines(limits, 50);
    ready.prepare(gitdir);
    await vi.waitFor(async () => expect(await incoming()).toHaveLength(1));
    await vi.waitFor(async () => expect(await incoming()).toEqual([]));
    await vi.waitFor(async () => expect(await unpackers()).toBe(0));
    const fresh = await ready.take(gitdir);
    expect(await incoming()).toHaveLength(1);
    expect(await unpackers()).toBe(0);
    await fresh.discard();
    expect(await incoming()).toEqual([]);
    await ready.close();
  });
});
