import { promises as fsp, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConflictError } from '../../errors.js';
import { MAIN_REF } from './refs.js';

/**
 * A lock without a pid of this machine (native git writes the new value into it; a replica on
 * another machine writes its pid and host name) is stale after this long: a pid says nothing
 * about whether a process elsewhere is alive.
 */
const FOREIGN_LOCK_STALE_MS = 60_000;
/** An empty lock is one whose writer died between creating it and writing its pid. */
const EMPTY_LOCK_STALE_MS = 2_000;
const WAIT_LIMIT_MS = 15_000;

const pidIsAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Names this machine in our locks, for replicas that share the repositories over a network file system. */
const HOST = os.hostname().replace(/\s/g, '_') || 'localhost';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A breaker left by a process killed while breaking a lock is itself stale after this long. */
const BREAKER_STALE_MS = 5_000;

/**
 * Removes the lock if its holder is gone; true when the caller may try again at once. Only the
 * holder of `main.break.lock` may inspect and remove a stale lock: two processes judging the
 * same dead lock at once would otherwise both remove "it", the second removing the fresh lock
 * the first had taken meanwhile, and two writers would move `main` together.
 */
async function removeIfStale(lockPath: string): Promise<boolean> {
  const breaker = lockPath.replace(/\.lock$/, '.break.lock');
  try {
    await (await fsp.open(breaker, 'wx')).close();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const stat = await fsp.stat(breaker).catch(() => undefined);
    if (stat && Date.now() - stat.mtimeMs > BREAKER_STALE_MS) await fsp.rm(breaker, { force: true });
    return false;
  }
  try {
    const [content, stat] = await Promise.all([fsp.readFile(lockPath, 'utf8'), fsp.stat(lockPath)]);
    const [, pid, host] = /^(\d+)(?: (\S+))?\n?$/.exec(content) ?? [];
    const age = Date.now() - stat.mtimeMs;
    const local = pid !== undefined && (host === undefined || host === HOST);
    const stale = local ? !pidIsAlive(Number(pid)) : age > (content ? FOREIGN_LOCK_STALE_MS : EMPTY_LOCK_STALE_MS);
    if (!stale) return false;
    await fsp.rm(lockPath, { force: true });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  } finally {
    await fsp.rm(breaker, { force: true });
  }
}

/**
 * Takes `refs/heads/main.lock` (or a branch's lock) exactly like git does (O_EXCL create), so this service, the CLI
 * and native git never move `main` at the same time. The lock holds our pid and host name so
 * that a lock left by a killed process of this machine is recognised and removed at once.
 * Returns the release function.
 */
export async function lockRef(gitdir: string, ref = MAIN_REF): Promise<() => Promise<void>> {
  const lockPath = path.join(gitdir, `${ref}.lock`);
  if (ref !== MAIN_REF) await fsp.mkdir(path.dirname(lockPath), { recursive: true });
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, 25)) {
    try {
      // In place: three system calls on a tiny file, where as promises each was a thread pool
      // round trip, on every write's way in (and the removal on its way out).
      writeFileSync(lockPath, `${process.pid} ${HOST}\n`, { flag: 'wx' });
      return async () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (await removeIfStale(lockPath)) continue;
    if (Date.now() > deadline) {
      throw new ConflictError('the organization repository stayed locked by another writer; nothing was written');
    }
    await sleep(pause * (0.5 + Math.random()));
  }
}
