import type { ArtifactMeta, FolderRecord, HistoryEntry } from './types.js';
import type { TreeEntry } from './repo.js';

export interface DirListing {
  readonly oid: string | null;
  readonly entries: readonly TreeEntry[];
}

/** The persisted part of an organization's state (see sidecar.ts). */
export interface OrgSnapshot {
  readonly head: string;
  readonly rootTree: string;
  readonly artifacts: readonly (ArtifactMeta & { readonly blob: string })[];
  readonly folders: readonly FolderRecord[];
  readonly entries: readonly HistoryEntry[];
}

/**
 * Everything the store knows of one organization as of commit `head`: the catalog in creation
 * order, folders, the per-artifact history index, and the directory listings of `head`'s tree
 * that writes have needed so far.
 */
export class OrgState {
  head: string | null = null;
  rootTree: string | null = null;
  readonly metas = new Map<string, ArtifactMeta>();
  /** Artifact id -> blob id of its file at `head`. */
  readonly blobs = new Map<string, string>();
  readonly folders = new Map<string, FolderRecord>();
  /** File path -> artifact or folder id. */
  readonly idOfPath = new Map<string, string>();
  /** Every artifact change, oldest first. */
  readonly entries: HistoryEntry[] = [];
  readonly byArtifact = new Map<string, HistoryEntry[]>();
  dirs = new Map<string, DirListing>();
  private catalogView: readonly ArtifactMeta[] | undefined;

  catalog(): readonly ArtifactMeta[] {
    this.catalogView ??= Object.freeze([...this.metas.values()]);
    return this.catalogView;
  }

  setArtifact(meta: ArtifactMeta, blob: string): void {
    this.metas.set(meta.id, Object.freeze(meta));
    this.blobs.set(meta.id, blob);
    this.idOfPath.set(meta.path, meta.id);
    this.catalogView = undefined;
  }

  removeArtifact(id: string): void {
    const path = this.metas.get(id)?.path;
    if (path) this.idOfPath.delete(path);
    this.metas.delete(id);
    this.blobs.delete(id);
    this.catalogView = undefined;
  }

  setFolder(folder: FolderRecord): void {
    this.folders.set(folder.id, Object.freeze(folder));
    this.idOfPath.set(folder.path, folder.id);
  }

  removeFolder(id: string): void {
    const path = this.folders.get(id)?.path;
    if (path) this.idOfPath.delete(path);
    this.folders.delete(id);
  }

  addEntry(entry: HistoryEntry): void {
    const frozen = Object.freeze(entry);
    this.entries.push(frozen);
    const list = this.byArtifact.get(entry.artifactId);
    if (list) list.push(frozen);
    else this.byArtifact.set(entry.artifactId, [frozen]);
  }

  /** Moves to a commit this process did not write: cached listings belong to the old tree. */
  moveTo(head: string, rootTree: string, dirs?: Map<string, DirListing>): void {
    this.head = head;
    this.rootTree = rootTree;
    this.dirs = dirs ?? new Map();
  }

  snapshot(): OrgSnapshot | undefined {
    if (!this.head || !this.rootTree) return undefined;
    return {
      head: this.head,
      rootTree: this.rootTree,
      artifacts: [...this.metas.values()].map((meta) => ({ ...meta, blob: this.blobs.get(meta.id) ?? '' })),
      folders: [...this.folders.values()],
      entries: this.entries,
    };
  }

  static fromSnapshot(snapshot: OrgSnapshot): OrgState {
    const state = new OrgState();
    for (const { blob, ...meta } of snapshot.artifacts) state.setArtifact(meta, blob);
    for (const folder of snapshot.folders) state.setFolder(folder);
    for (const entry of snapshot.entries) state.addEntry(entry);
    state.moveTo(snapshot.head, snapshot.rootTree);
    return state;
  }
}
