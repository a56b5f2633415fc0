import type { ArtifactType } from '../../artifacts/index.js';
import type { OrgState } from '../catalog/index.js';

/** An artifact or a folder as a pushed commit leaves it: what placing and permission checks need. */
export interface PushedEntry {
  readonly id: string;
  /** An artifact type, or 'folder'. */
  readonly type: ArtifactType | 'folder';
  readonly parentId: string | null;
  readonly workspaceId: string;
  readonly path: string;
}

/**
 * The catalog at `main` with the pushed commits laid over it, commit by commit, without touching
 * the organization's state: a refused push leaves nothing behind. Only what the commits change
 * is held here; the rest is read from the state underneath.
 */
export class PushedCatalog {
  /** Entries the push set (or removed: null), by id. */
  readonly #byId = new Map<string, PushedEntry | null>();
  /** Paths the push set (or removed: null) -> the id there. */
  readonly #byPath = new Map<string, string | null>();
  readonly #removed = new Map<string, string>();

  constructor(private readonly state: OrgState) {}

  get(id: string): PushedEntry | undefined {
    const laid = this.#byId.get(id);
    if (laid !== undefined) return laid ?? undefined;
    const meta = this.state.metas.get(id);
    if (meta) return { id, type: meta.type, parentId: meta.parentId, workspaceId: meta.workspaceId, path: meta.path };
    const folder = this.state.folders.get(id);
    return (
      folder && { id, type: 'folder', parentId: folder.parentId, workspaceId: folder.workspaceId, path: folder.path }
    );
  }

  /** The live artifact or folder whose file is at `path`. */
  atPath(path: string): PushedEntry | undefined {
    const laid = this.#byPath.get(path);
    const id = laid === undefined ? this.state.idOfPath.get(path) : laid;
    const entry = id ? this.get(id) : undefined;
    return entry?.path === path ? entry : undefined;
  }

  set(entry: PushedEntry): void {
    this.#byId.set(entry.id, entry);
    this.#byPath.set(entry.path, entry.id);
    this.#removed.delete(entry.id);
  }

  remove(entry: PushedEntry): void {
    this.#byId.set(entry.id, null);
    this.#byPath.set(entry.path, null);
    this.#removed.set(entry.id, entry.path);
  }

  /** Where the artifact or folder was when the push removed it (undefined: not removed by the push). */
  removedFrom(id: string): string | undefined {
    return this.#removed.get(id);
  }

  /** The live artifacts and folders whose parent is `id`, as the push leaves them. */
  childrenOf(id: string): PushedEntry[] {
    const below = [
      ...this.state.children(id).map((m) => m.id),
      ...this.state.subfolders(id).map((f) => f.id),
      ...[...this.#byId.values()].flatMap((e) => (e?.parentId === id ? [e.id] : [])),
    ];
    return [...new Set(below)].flatMap((childId) => {
      const child = this.get(childId);
      return child?.parentId === id ? [child] : [];
    });
  }
}
