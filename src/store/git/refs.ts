import { mkdirSync, promises as fsp, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isObjectId } from '../../ids.js';
import { writeFileAfter, writeFileAtomically, type Durability } from './atomic-fs.js';

export const MAIN_REF = 'refs/heads/main';
/** A change request's branch: its commits stay off `main` until merged. */
export const changeRequestRef = (number: number): string => `refs/heads/cr/${number}`;

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** The commit `main` points at, loose ref first, then packed-refs (after a `git gc`); null if none. */
export const readMain = (gitdir: string): string | null => readRef(gitdir, MAIN_REF);

/**
 * The commit a branch points at, as readMain reads `main`. Read in place: a file of 41 bytes
 * takes microseconds, where a read as a promise is four trips through the thread pool, and
 * every write asks under its lock, some twice.
 */
export function readRef(gitdir: string, ref: string): string | null {
  return tipOf(gitdir, ref, () => readPackedRefs(gitdir));
}

/** A branch's commit: its loose ref's, else its line in `packed` (read only then); null when neither has one. */
function tipOf(gitdir: string, ref: string, packed: () => string): string | null {
  const loose = ifPresent(() => readFileSync(path.join(gitdir, ref), 'utf8'), '').trim();
  return isObjectId(loose) ? loose : packedValue(packed(), ref);
}

/** The text of `packed-refs`; empty when there is none (no `git gc` yet). */
const readPackedRefs = (gitdir: string): string =>
  ifPresent(() => readFileSync(path.join(gitdir, 'packed-refs'), 'utf8'), '');

/** A ref's commit in the text of `packed-refs`; null when it is not there. */
function packedValue(packed: string, ref: string): string | null {
  const value = packed
    .split('\n')
    .find((line) => line.endsWith(` ${ref}`))
    ?.slice(0, 40);
  return isObjectId(value) ? value : null;
}

/**
 * A cheap fingerprint of `main`'s ref file. Every update of it (ours, git's) is a rename, so a
 * changed ref has a new inode and times; an unchanged stamp means `main` did not move and the
 * ref need not be read. One synchronous stat is far cheaper than an async read (four trips
 * through the thread pool), and it sits on every read path. Null when there is no loose ref.
 */
function refStamp(gitdir: string, ref: string): string | null {
  // Concatenated, not path.join-ed: gitdir is already normal, and this runs on every call.
  const stat = statSync(`${gitdir}/${ref}`, { throwIfNoEntry: false });
  return stat ? `${stat.ino}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.size}` : null;
}

const stampsThisTick = new Map<string, string | null>();

/**
 * refStamp, taken once per run of the event loop's callbacks and promise reactions, as
 * DataLoader batches the loads of one tick. A tool call asks several times whether `main`
 * moved (the artifact's catalog entry, then its body), and at 100,000 artifacts those stats
 * were a tenth of a read's time on the event loop. Within one run the answer cannot be one a
 * caller could tell from a fresh stat: no I/O is read in between, so every request being
 * served arrived before the first stat, and any commit it could know of was made before then.
 */
export function refStampThisTick(gitdir: string, ref: string): string | null {
  const key = ref === MAIN_REF ? gitdir : `${gitdir}\0${ref}`;
  const known = stampsThisTick.get(key);
  if (known !== undefined) return known;
  if (stampsThisTick.size === 0) process.nextTick(() => stampsThisTick.clear());
  const stamp = refStamp(gitdir, ref);
  stampsThisTick.set(key, stamp);
  return stamp;
}

/**
 * The commit point: rename is atomic, so readers see the old commit or the new one. The new
 * value is staged in the store's own folder, never under refs/, where any ref reader (a clone's
 * upload-pack, `git for-each-ref`) would take a temp file for a branch. With `objectsDurable`
 * (the commit's objects still reaching the disk), the new value is staged and synced meanwhile,
 * and the ref moves once they are there (see writeFileAfter).
 */
export async function writeRef(
  gitdir: string,
  ref: string,
  commit: string,
  durability: Durability,
  objectsDurable?: Promise<void>,
): Promise<void> {
  const target = path.join(gitdir, ref);
  const staging = path.join(gitdir, 'specbase', 'staging');
  // `refs/heads/` exists in every repository; a branch under `cr/` may be the first there.
  const underHeads = ref === MAIN_REF ? undefined : path.dirname(target);
  if (objectsDurable) {
    if (underHeads) mkdirSync(underHeads, { recursive: true });
    return writeFileAfter(target, `${commit}\n`, staging, durability, objectsDurable);
  }
  if (underHeads) await fsp.mkdir(underHeads, { recursive: true });
  await writeFileAtomically(target, `${commit}\n`, staging, durability);
}

/**
 * The branches a push may update and their commits, `main` first, then change requests'
 * `cr/*` by name; loose refs over packed ones, locks and anything else left out. A few small
 * files read in place: as promises, each read was four round trips through the thread pool,
 * on every push's first request.
 */
export function pushableBranches(gitdir: string): { readonly ref: string; readonly oid: string }[] {
  const names = new Set<string>();
  for (const name of ifPresent(() => readdirSync(path.join(gitdir, 'refs/heads/cr')), [])) {
    names.add(`refs/heads/cr/${name}`);
  }
  const packed = readPackedRefs(gitdir);
  for (const line of packed.split('\n')) {
    const ref = line.slice(41);
    if (ref.startsWith('refs/heads/cr/')) names.add(ref);
  }
  const refs = [MAIN_REF, ...[...names].filter((ref) => /^refs\/heads\/cr\/\d+$/.test(ref)).sort(byNumber)];
  return refs.flatMap((ref) => {
    const oid = tipOf(gitdir, ref, () => packed);
    return oid ? [{ ref, oid }] : [];
  });
}

/** What `read` gives, or `missing` when the file or directory is not there. */
function ifPresent<T>(read: () => T, missing: T): T {
  try {
    return read();
  } catch (error) {
    if (isMissing(error)) return missing;
    throw error;
  }
}

const byNumber = (a: string, b: string): number =>
  Number(a.slice(a.lastIndexOf('/') + 1)) - Number(b.slice(b.lastIndexOf('/') + 1));
