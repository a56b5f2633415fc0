import { ConflictError, NotFoundError } from '../../errors.js';
import { lockRef, readMain, readRef, writeRef, type Durability } from '../git/index.js';

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

/** Makes a change request's branch of commits a push just landed (a push of `cr/my-change`): `ref` points at `tip`. */
export async function adoptBranch(gitdir: string, ref: string, tip: string, durability: Durability): Promise<void> {
  const release = await lockRef(gitdir, ref);
  try {
    if ((await readRef(gitdir, ref)) !== null) throw new ConflictError(`the branch ${ref} already exists`);
    await writeRef(gitdir, ref, tip, durability);
  } finally {
    await release();
  }
}
