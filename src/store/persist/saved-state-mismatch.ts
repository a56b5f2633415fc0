import { setImmediate as nextTurn } from 'node:timers/promises';
import { SpecbaseError } from '../../errors.js';
import type { OrgState } from '../catalog/index.js';
import { BlobBatch, gitPlumbing } from '../git/index.js';
import { parseRepositoryFile } from '../layout/index.js';

/** `git ls-tree -r` prints about 120 bytes a file: room for a million. */
const MAX_LISTING_BYTES = 128 * 1024 * 1024;
/** Files looked at between turns of the event loop. */
const YIELD_EVERY = 2_000;
const decoder = new TextDecoder('utf-8');

/** The markdown files of `commit`'s tree, path -> blob id: the files the catalog is built from. */
async function markdownFiles(gitdir: string, commit: string): Promise<Map<string, string>> {
  const listing = await gitPlumbing(gitdir, ['ls-tree', '-r', '-z', '--full-tree', commit], {
    maxOutputBytes: MAX_LISTING_BYTES,
  });
  const files = new Map<string, string>();
  let seen = 0;
  // Entries are `<mode> <type> <blob id>\t<path>`, each ended by NUL.
  for (const entry of listing.toString('utf8').split('\0')) {
    if (++seen % YIELD_EVERY === 0) await nextTurn();
    const tab = entry.indexOf('\t');
    const [, type, oid] = entry.slice(0, tab).split(' ');
    const path = entry.slice(tab + 1);
    if (tab > 0 && type === 'blob' && oid && path.endsWith('.md')) files.set(path, oid);
  }
  return files;
}

/**
 * Why a saved state disagrees with the files of the commit it was saved at, or undefined when it
 * agrees: every artifact and folder it holds is a file of that commit's tree, at its path and
 * (for artifacts) with its blob, and every markdown file of the tree is one of them. One
 * `git ls-tree -r` and a walk over the rows; a file is read only where the two differ, since the
 * catalog built from Git leaves some files out too (a file whose frontmatter does not parse, a
 * second file with a known id) and keeps an artifact's last good blob when another id took its path.
 */
export async function savedStateMismatch(gitdir: string, state: OrgState): Promise<string | undefined> {
  const commit = state.head;
  if (!commit) return 'it names no commit';
  const files = await markdownFiles(gitdir, commit);
  const blobs = new BlobBatch(gitdir);
  /** The id in the frontmatter of a file, as the catalog reads it; undefined when it does not parse. */
  const idIn = async (oid: string, path: string): Promise<string | undefined> => {
    try {
      return parseRepositoryFile(decoder.decode(await blobs.read(oid)), path).frontmatter.id;
    } catch (error) {
      if (error instanceof SpecbaseError) return undefined;
      throw error;
    }
  };
  try {
    const claimed = new Set<string>();
    let seen = 0;
    for (const [id, meta] of state.metas) {
      if (++seen % YIELD_EVERY === 0) await nextTurn();
      const blob = files.get(meta.path);
      if (blob === undefined) return `artifact ${id} is saved at ${meta.path}, which is not in the tree of ${commit}`;
      claimed.add(meta.path);
      if (blob !== state.blobs.get(id)) {
        // Only a file of another id keeps the artifact's last good blob; any other would be recorded.
        const found = await idIn(blob, meta.path);
        if (found === undefined || found === id) {
          return `artifact ${id} is saved with blob ${state.blobs.get(id)}, but ${meta.path} is ${blob} in ${commit}`;
        }
      }
    }
    for (const [id, folder] of state.folders) {
      if (!files.has(folder.path))
        return `folder ${id} is saved at ${folder.path}, which is not in the tree of ${commit}`;
      claimed.add(folder.path);
    }
    for (const [path, blob] of files) {
      if (claimed.has(path)) continue;
      const id = await idIn(blob, path);
      if (id !== undefined && !state.metas.has(id) && !state.folders.has(id))
        return `${path} in ${commit} (id ${id}) is not saved`;
    }
    return undefined;
  } finally {
    blobs.close();
  }
}
