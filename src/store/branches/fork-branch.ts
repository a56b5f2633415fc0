import { ConflictError, NotFoundError } from '../../errors.js';
import { lockRef, readMain, readRef, writeRef, type Durability } from '../git/index.js';

/**
 * Makes a change request's branch at `at` (commits a push just landed), or at `main`'s commit
 * now; refused when the branch exists (a number is never given twice). Returns the commit the
 * branch starts from.
 */
export async function forkBranch(gitdir: string, ref: string, durability: Durability, at?: string): Promise<string> {
  const release = await lockRef(gitdir, ref);
  try {
    if (readRef(gitdir, ref) !== null) throw new ConflictError(`the branch ${ref} already exists`);
    const start = at ?? readMain(gitdir);
    if (!start) throw new NotFoundError('organization');
    await writeRef(gitdir, ref, start, durability);
    return start;
  } finally {
    await release();
  }
}
