import { promises as fsp, statSync } from 'node:fs';
import path from 'node:path';
import { isObjectId } from '../../ids.js';
import { writeFileAtomically, type Durability } from './atomic-fs.js';

export const MAIN_REF = 'refs/heads/main';

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** The commit `main` points at, loose ref first, then packed-refs (after a `git gc`); null if none. */
export async function readMain(gitdir: string): Promise<string | null> {
  try {
    const value = (await fsp.readFile(path.join(gitdir, MAIN_REF), 'utf8')).trim();
    if (isObjectId(value)) return value;
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  try {
    const packed = await fsp.readFile(path.join(gitdir, 'packed-refs'), 'utf8');
    const line = packed.split('\n').find((l) => l.endsWith(` ${MAIN_REF}`));
    const value = line?.slice(0, 40);
    return isObjectId(value) ? value : null;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/**
 * A cheap fingerprint of `main`'s ref file. Every update of it (ours, git's) is a rename, so a
 * changed ref has a new inode and times; an unchanged stamp means `main` did not move and the
 * ref need not be read. One synchronous stat is far cheaper than an async read (four trips
 * through the thread pool), and it sits on every read path. Null when there is no loose ref.
 */
function mainStamp(gitdir: string): string | null {
  // Concatenated, not path.join-ed: gitdir is already normal, and this runs on every call.
  const stat = statSync(`${gitdir}/${MAIN_REF}`, { throwIfNoEntry: false });
  return stat ? `${stat.ino}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.size}` : null;
}

const stampsThisTick = new Map<string, string | null>();

/**
 * mainStamp, taken once per run of the event loop's callbacks and promise reactions, as
 * DataLoader batches the loads of one tick. A tool call asks several times whether `main`
 * moved (the artifact's catalog entry, then its body), and at 100,000 artifacts those stats
 * were a tenth of a read's time on the event loop. Within one run the answer cannot be one a
 * caller could tell from a fresh stat: no I/O is read in between, so every request being
 * served arrived before the first stat, and any commit it could know of was made before then.
 */
export function mainStampThisTick(gitdir: string): string | null {
  const known = stampsThisTick.get(gitdir);
  if (known !== undefined) return known;
  if (stampsThisTick.size === 0) process.nextTick(() => stampsThisTick.clear());
  const stamp = mainStamp(gitdir);
  stampsThisTick.set(gitdir, stamp);
  return stamp;
}

/**
 * The commit point: rename is atomic, so readers see the old commit or the new one. The new
 * value is staged in the store's own folder, never under refs/, where any ref reader (a clone's
 * upload-pack, `git for-each-ref`) would take a temp file for a branch.
 */
export async function writeMain(gitdir: string, commit: string, durability: Durability): Promise<void> {
  await writeFileAtomically(
    path.join(gitdir, MAIN_REF),
    `${commit}\n`,
    path.join(gitdir, 'specbase', 'staging'),
    durability,
  );
}
