import { ConflictError, NotFoundError } from '../../errors.js';
import { gitPlumbing, lockRef, readMain, readRef, writeRef, type Durability } from '../git/index.js';

/**
 * Makes a change request's branch at `main`'s commit now; refused when the branch exists (a
 * number is never given twice). Returns the commit the branch starts from.
 */
export async function forkBranch(gitdir: string, ref: string, durability: Durability): Promise<string> {
  const release = await lockRef(gitdir, ref);
  try {
    if ((await readRef(gitdir, ref)) !== null) throw new ConflictError(`the branch ${ref} already exists`);
    const main = await readMain(gitdir);
    if (!main) throw new NotFoundError('organization');
    await writeRef(gitdir, ref, main, durability);
    return main;
  } finally {
    await release();
  }
}

/**
 * Makes a change request's branch of commits git just received under another name (a push of
 * `cr/my-change`): `ref` points at `tip`, and the pushed name goes, if it still points there.
 */
export async function adoptBranch(
  gitdir: string,
  pushedRef: string,
  ref: string,
  tip: string,
  durability: Durability,
): Promise<void> {
  const release = await lockRef(gitdir, ref);
  try {
    if ((await readRef(gitdir, ref)) !== null) throw new ConflictError(`the branch ${ref} already exists`);
    await writeRef(gitdir, ref, tip, durability);
  } finally {
    await release();
  }
  // git's own compare-and-delete: a newer push under the same name keeps its branch.
  await gitPlumbing(gitdir, ['update-ref', '-d', pushedRef, tip]).catch(() => undefined);
}
