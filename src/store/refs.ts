import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { writeFileAtomically } from './atomic-fs.js';

export const MAIN_REF = 'refs/heads/main';
const OID = /^[0-9a-f]{40}$/;

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** The commit `main` points at, loose ref first, then packed-refs (after a `git gc`); null if none. */
export async function readMain(gitdir: string): Promise<string | null> {
  try {
    const value = (await fsp.readFile(path.join(gitdir, MAIN_REF), 'utf8')).trim();
    if (OID.test(value)) return value;
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  try {
    const packed = await fsp.readFile(path.join(gitdir, 'packed-refs'), 'utf8');
    const line = packed.split('\n').find((l) => l.endsWith(` ${MAIN_REF}`));
    const value = line?.slice(0, 40);
    return value && OID.test(value) ? value : null;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/**
 * The commit point: rename is atomic, so readers see the old commit or the new one. The new
 * value is staged in the store's own folder, never under refs/, where any ref reader (a clone's
 * upload-pack, `git for-each-ref`) would take a temp file for a branch.
 */
export async function writeMain(gitdir: string, commit: string): Promise<void> {
  await writeFileAtomically(path.join(gitdir, MAIN_REF), `${commit}\n`, path.join(gitdir, 'specbase', 'staging'));
}
