import type { ArtifactType } from '../../artifacts/index.js';
import type { ArtifactMeta, CatalogView, FolderRecord, HistoryEntry } from '../types.js';
import type { TreeEntry } from '../git/index.js';

export interface DirListing {
  readonly oid: string | null;
  readonly entries: readonly TreeEntry[];
}

/** Ids grouped by a key, each group in insertion (creation) order. */
class GroupIndex<K> {
  private readonly groups = new Map<K, Set<string>>();

  add(key: K, id: string): void {
    const group = this.groups.get(key);
    if (group) group.add(id);
    else this.groups.set(key, new Set([id]));
  }

  delete(key: K, id: string): void {
    const group = this.groups.get(key);
    if (group?.delete(id) && group.size === 0) this.groups.delete(key);
  }

  get(key: K): ReadonlySet<string> {
    return this.groups.get(key) ?? EMPTY;
  }
}

const EMPTY: ReadonlySet<string> = new Set();

/**
 * Everything the store knows of one organization as of commit `head`: the catalog in creation
 * order with indexes by parent, type and workspace, folders, the per-artifact history index,
 * and the directory listings of `head`'s tree that writes have needed so far.
 */
export class OrgState implements CatalogView {
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
  /** Creation order of artifacts, to merge groups back into catalog order. */
  private readonly order = new Map<string, number>();
  private nextOrder = 0;
  private readonly byParent = new GroupIndex<string | null>();
  private readonly byTypeAndWorkspace = new GroupIndex<string>();
  private readonly foldersByParent = new GroupIndex<string | null>();
  /** Positions in `entries` of each workspace's changes, ascending. */
  private readonly entriesByWorkspace = new Map<string, number[]>();
  /** Workspace of each entry, by position, as the saved state keeps it. */
  private readonly entryWorkspaces: string[] = [];
  /** Each artifact whose last change is its delete: that change and the artifact's workspace then. */
  readonly deletes = new Map<string, { readonly entry: HistoryEntry; readonly workspaceId: string }>();
  /** What changed since the saved state last took it (see saved-state.ts). */
  readonly unsaved = { artifacts: new Set<string>(), folders: new Set<string>(), entriesFrom: 0 };

  catalog(): readonly ArtifactMeta[] {
    return [...this.metas.values()];
  }

  meta(id: string): ArtifactMeta | undefined {
    return this.metas.get(id);
  }

  folder(id: string): FolderRecord | undefined {
    return this.folders.get(id);
  }

  children(parentId: string | null, type?: ArtifactType): ArtifactMeta[] {
    const found: ArtifactMeta[] = [];
    for (const id of this.byParent.get(parentId)) {
      const meta = this.metas.get(id)!;
      if (!type || meta.type === type) found.push(meta);
    }
    return found;
  }

  subfolders(parentId: string | null): FolderRecord[] {
    return [...this.foldersByParent.get(parentId)].map((id) => this.folders.get(id)!);
  }

  ofType(type: ArtifactType, workspaceIds: ReadonlySet<string>): ArtifactMeta[] {
    const found: ArtifactMeta[] = [];
    for (const workspaceId of workspaceIds) {
      for (const id of this.byTypeAndWorkspace.get(typeKey(type, workspaceId))) found.push(this.metas.get(id)!);
    }
    return workspaceIds.size > 1 ? found.sort((a, b) => this.order.get(a.id)! - this.order.get(b.id)!) : found;
  }

  recentChanges(workspaceIds: ReadonlySet<string>, limit: number): HistoryEntry[] {
    const positions: number[] = [];
    for (const workspaceId of workspaceIds) {
      const list = this.entriesByWorkspace.get(workspaceId) ?? [];
      positions.push(...list.slice(Math.max(0, list.length - limit)));
    }
    return positions
      .sort((a, b) => b - a)
      .slice(0, Math.max(0, limit))
      .map((position) => this.entries[position]!);
  }

  /** Creation rank of an artifact: smaller was created first. */
  orderOf(id: string): number | undefined {
    return this.order.get(id);
  }

  workspaceOfEntry(position: number): string {
    return this.entryWorkspaces[position]!;
  }

  /** As `setArtifact`, keeping the creation rank the saved state recorded. */
  restoreArtifact(meta: ArtifactMeta, blob: string, order: number): void {
    this.order.set(meta.id, order);
    this.nextOrder = Math.max(this.nextOrder, order + 1);
    this.setArtifact(meta, blob);
  }

  /**
   * Ids of the artifacts changed after commit `since` (an artifact change), oldest first, or
   * undefined when `since` is no artifact change in the history. Costs the changes since.
   */
  changedSince(since: string): string[] | undefined {
    const changed = new Set<string>();
    for (let i = this.entries.length - 1; i >= 0; i--) {
      if (this.entries[i]!.commit === since) return [...changed].reverse();
      changed.add(this.entries[i]!.artifactId);
    }
    return undefined;
  }

  setArtifact(meta: ArtifactMeta, blob: string): void {
    const previous = this.metas.get(meta.id);
    this.unsaved.artifacts.add(meta.id);
    if (!this.order.has(meta.id)) this.order.set(meta.id, this.nextOrder++);
    // An edit keeps the artifact's place among its siblings; only a move re-files it.
    if (previous && !sameGroups(previous, meta)) this.unindex(previous);
    this.metas.set(meta.id, Object.freeze(meta));
    this.blobs.set(meta.id, blob);
    this.idOfPath.set(meta.path, meta.id);
    this.byParent.add(meta.parentId, meta.id);
    this.byTypeAndWorkspace.add(typeKey(meta.type, meta.workspaceId), meta.id);
  }

  /** A new file for a known artifact whose catalog facts stay as they were (see advance.ts). */
  setBlob(id: string, blob: string): void {
    this.blobs.set(id, blob);
    this.unsaved.artifacts.add(id);
  }

  removeArtifact(id: string): void {
    const meta = this.metas.get(id);
    if (!meta) return;
    this.unsaved.artifacts.add(id);
    this.unindex(meta);
    this.idOfPath.delete(meta.path);
    this.metas.delete(id);
    this.blobs.delete(id);
    this.order.delete(id);
  }

  setFolder(folder: FolderRecord): void {
    const previous = this.folders.get(folder.id);
    this.unsaved.folders.add(folder.id);
    if (previous) this.foldersByParent.delete(previous.parentId, previous.id);
    this.folders.set(folder.id, Object.freeze(folder));
    this.idOfPath.set(folder.path, folder.id);
    this.foldersByParent.add(folder.parentId, folder.id);
  }

  removeFolder(id: string): void {
    const folder = this.folders.get(id);
    if (!folder) return;
    this.unsaved.folders.add(id);
    this.idOfPath.delete(folder.path);
    this.foldersByParent.delete(folder.parentId, id);
    this.folders.delete(id);
  }

  addEntry(entry: HistoryEntry, workspaceId: string): void {
    const frozen = Object.freeze(entry);
    this.entries.push(frozen);
    this.entryWorkspaces.push(workspaceId);
    const list = this.byArtifact.get(entry.artifactId);
    if (list) list.push(frozen);
    else this.byArtifact.set(entry.artifactId, [frozen]);
    if (entry.verb === 'delete') this.deletes.set(entry.artifactId, { entry: frozen, workspaceId });
    else this.deletes.delete(entry.artifactId);
    const positions = this.entriesByWorkspace.get(workspaceId);
    if (positions) positions.push(this.entries.length - 1);
    else this.entriesByWorkspace.set(workspaceId, [this.entries.length - 1]);
  }

  /** The saved state now holds everything up to `head`. */
  markSaved(): void {
    this.unsaved.artifacts.clear();
    this.unsaved.folders.clear();
    this.unsaved.entriesFrom = this.entries.length;
  }

  /**
   * Moves to a commit. One this process wrote comes with the listings it wrote (`written`),
   * which replace theirs, the others being unchanged; after any other commit the cached listings
   * belong to the old tree.
   */
  moveTo(head: string, rootTree: string, written?: ReadonlyMap<string, DirListing>): void {
    this.head = head;
    this.rootTree = rootTree;
    if (!written) this.dirs = new Map();
    else for (const [dir, listing] of written) this.dirs.set(dir, listing);
  }

  private unindex(meta: ArtifactMeta): void {
    this.byParent.delete(meta.parentId, meta.id);
    this.byTypeAndWorkspace.delete(typeKey(meta.type, meta.workspaceId), meta.id);
  }
}

const sameGroups = (a: ArtifactMeta, b: ArtifactMeta): boolean =>
  a.parentId === b.parentId && a.type === b.type && a.workspaceId === b.workspaceId;

const typeKey = (type: ArtifactType, workspaceId: string): string => `${type}\u0000${workspaceId}`;
