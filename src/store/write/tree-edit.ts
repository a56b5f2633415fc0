import type { DirListing, OrgState } from '../catalog/index.js';
import { dirnameOf } from '../layout/index.js';
import { readTreeEntries, writeTreeEntries, type Repo, type TreeEntry } from '../git/index.js';

const basename = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** A directory of `state.head`'s tree, read once and then served from memory. */
async function listing(repo: Repo, state: OrgState, dir: string): Promise<DirListing> {
  const cached = state.dirs.get(dir);
  if (cached) return cached;
  let oid: string | null = null;
  if (dir === '') oid = state.rootTree;
  else {
    const parent = await listing(repo, state, dirnameOf(dir));
    const entry = parent.entries.find((e) => e.path === basename(dir) && e.type === 'tree');
    oid = entry?.oid ?? null;
  }
  const result: DirListing = { oid, entries: oid ? await readTreeEntries(repo, oid) : [] };
  state.dirs.set(dir, result);
  return result;
}

const withEntry = (entries: readonly TreeEntry[], entry: TreeEntry): TreeEntry[] => {
  const next = entries.slice();
  const at = next.findIndex((e) => e.path === entry.path);
  if (at >= 0) next[at] = entry;
  else next.push(entry);
  return next;
};

/**
 * Writes the trees of `state.head` with one file set to `blob`, bottom-up, and returns the new
 * root tree with the listings it wrote (for the state once the ref has moved).
 */
export async function treeWithFile(
  repo: Repo,
  state: OrgState,
  path: string,
  blob: string,
): Promise<{ rootTree: string; dirs: Map<string, DirListing> }> {
  const dirs = new Map(state.dirs);
  let dir = dirnameOf(path);
  let child: TreeEntry = { mode: '100644', path: basename(path), oid: blob, type: 'blob' };
  for (;;) {
    const entries = withEntry((await listing(repo, state, dir)).entries, child);
    const oid = await writeTreeEntries(repo, entries);
    dirs.set(dir, { oid, entries });
    if (dir === '') return { rootTree: oid, dirs };
    child = { mode: '040000', path: basename(dir), oid, type: 'tree' };
    dir = dirnameOf(dir);
  }
}
