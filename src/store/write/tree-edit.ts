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

/** A file's new blob, or null: the file goes (and a directory it leaves empty goes too). */
export interface FileEdit {
  readonly path: string;
  readonly blob: string | null;
}

const depth = (dir: string): number => (dir === '' ? 0 : dir.split('/').length);

/**
 * Writes the trees of `state.head` with `edits` applied, deepest directories first, each
 * directory written once however many of its files change. Returns the new root tree with the
 * listings it wrote, and only those (for the state once the ref has moved): a copy of every
 * listing the state holds, one per directory of the organization, cost each commit of an
 * import time in proportion to the files already imported.
 */
export async function treeWithFiles(
  repo: Repo,
  state: OrgState,
  edits: readonly FileEdit[],
): Promise<{ rootTree: string; dirs: Map<string, DirListing> }> {
  const dirs = new Map<string, DirListing>();
  /** Directory -> its entries that change: name -> new entry, or null when it goes. */
  const pending = new Map<string, Map<string, TreeEntry | null>>();
  const change = (dir: string, name: string, entry: TreeEntry | null) => {
    const changes = pending.get(dir) ?? new Map<string, TreeEntry | null>();
    changes.set(name, entry);
    pending.set(dir, changes);
  };
  for (const edit of edits) {
    change(
      dirnameOf(edit.path),
      basename(edit.path),
      edit.blob === null ? null : { mode: '100644', path: basename(edit.path), oid: edit.blob, type: 'blob' },
    );
  }
  for (;;) {
    const dir = [...pending.keys()].sort((a, b) => depth(b) - depth(a))[0]!;
    const changes = pending.get(dir)!;
    pending.delete(dir);
    const entries = (await listing(repo, state, dir)).entries.filter((e) => !changes.has(e.path));
    for (const entry of changes.values()) if (entry) entries.push(entry);
    if (dir === '') {
      const oid = await writeTreeEntries(repo, entries);
      dirs.set(dir, { oid, entries });
      return { rootTree: oid, dirs };
    }
    if (entries.length === 0) {
      dirs.set(dir, { oid: null, entries: [] });
      change(dirnameOf(dir), basename(dir), null);
      continue;
    }
    const oid = await writeTreeEntries(repo, entries);
    dirs.set(dir, { oid, entries });
    change(dirnameOf(dir), basename(dir), { mode: '040000', path: basename(dir), oid, type: 'tree' });
  }
}

/** The trees of `state.head` with one file set to `blob`. */
export const treeWithFile = (repo: Repo, state: OrgState, path: string, blob: string) =>
  treeWithFiles(repo, state, [{ path, blob }]);
