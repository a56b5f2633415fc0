import { existsSync } from 'node:fs';
import { readFile, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConflictError } from '../../../src/errors.js';
import { lockRef } from '../../../src/store/git/index.js';
import { alice, git, openStoreFixture, ORG, type StoreFixture } from './fixture.js';

/** A pid no process of this machine has: the kernel's limit is far below it. */
const NO_SUCH_PID = 2 ** 30;

let fx: StoreFixture;
beforeEach(async () => {
  fx = await openStoreFixture();
});
afterEach(async () => {
  await fx.close();
});

describe('main.lock shared by replicas on several machines', () => {
  const lock = () => path.join(fx.gitdir, 'refs/heads/main.lock');
  const edit = async (text: string) => {
    const before = await fx.store.read(ORG, fx.productId);
    return fx.store.update(ORG, fx.productId, { body: `${before.body}${text}\n`, verb: 'edit' }, alice);
  };

  it('names our pid and host while held, so other machines do not judge it by a pid of theirs', async () => {
    const release = await lockRef(fx.gitdir);
    try {
      expect(await readFile(lock(), 'utf8')).toBe(`${process.pid} ${os.hostname()}\n`);
    } finally {
      await release();
    }
  });

  it('a fresh lock of another host is respected even when its pid is not alive here', async () => {
    const head = git(fx.gitdir, 'rev-parse', 'main');
    await writeFile(lock(), `${NO_SUCH_PID} another-machine\n`);
    await expect(edit('must wait')).rejects.toThrow(ConflictError);
    expect(git(fx.gitdir, 'rev-parse', 'main')).toBe(head);
    expect(existsSync(lock())).toBe(true);
  }, 40_000);

  it('a lock of another host older than a minute is stale; a dead pid of this host at once', async () => {
    await writeFile(lock(), `${NO_SUCH_PID} another-machine\n`);
    const longAgo = new Date(Date.now() - 120_000);
    await utimes(lock(), longAgo, longAgo);
    const first = await edit('after a foreign crash');
    expect(git(fx.gitdir, 'rev-parse', 'main')).toBe(first.commit);
    await writeFile(lock(), `${NO_SUCH_PID} ${os.hostname()}\n`);
    const second = await edit('after a local crash');
    expect(git(fx.gitdir, 'rev-parse', 'main')).toBe(second.commit);
    expect(existsSync(lock())).toBe(false);
  });
});
