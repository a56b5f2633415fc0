import type { FileChange } from '../git/index.js';
import type { OrgState } from './org-state.js';

/**
 * An artifact's or folder's file moved to another path (the layout migration, or a `git mv`):
 * the same record with the same history at a new path. An artifact remembers where it was, so
 * versions from before the move are still read from there. False when `from` is not the
 * record's current path.
 */
export function recordMove(state: OrgState, id: string, from: string, to: string): boolean {
  const meta = state.metas.get(id);
  const folder = state.folders.get(id);
  if (meta?.path === from) {
    state.setArtifact(
      { ...meta, path: to, formerPaths: [from, ...(meta.formerPaths ?? [])] },
      state.blobs.get(id) ?? '',
    );
  } else if (folder?.path === from) {
    state.setFolder({ ...folder, path: to });
  } else {
    return false;
  }
  state.idOfPath.delete(from);
  return true;
}

/**
 * The files of one commit that are pure renames of known records: added blob -> the path it was
 * deleted from in the same commit. Content is unchanged, so neither side needs to be read.
 */
export function renamesIn(state: OrgState, changes: readonly FileChange[]): Map<string, string> {
  const deletedBlobs = new Map<string, string>();
  for (const change of changes) {
    if (!change.after && change.before && state.idOfPath.has(change.path)) deletedBlobs.set(change.before, change.path);
  }
  const renames = new Map<string, string>();
  for (const change of changes) {
    const from = change.after && !change.before ? deletedBlobs.get(change.after) : undefined;
    if (from && change.after) renames.set(change.after, from);
  }
  return renames;
}
