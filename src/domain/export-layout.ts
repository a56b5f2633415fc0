import { slugify } from '../artifacts/index.js';
import type { ArtifactMeta, CatalogView, FolderRecord } from '../store/types.js';

/** One artifact of an export and the file it becomes; `parentPath` when its parent is exported too. */
export interface ExportEntry {
  readonly meta: ArtifactMeta;
  readonly path: string;
  readonly parentPath?: string;
}

/**
 * Names in one directory, unique without case (a zip opened on macOS or Windows must not merge
 * two files): the second `notes.md` becomes `notes-2.md`.
 */
class Directory {
  readonly #taken = new Set<string>();
  constructor(readonly path: string) {}

  /** `wanted` + `extension`, made unique; `alsoDirectory` reserves the bare name too, for children. */
  name(wanted: string, extension: string, alsoDirectory = false): string {
    const free = (name: string) =>
      !this.#taken.has(`${name}${extension}`.toLowerCase()) && !(alsoDirectory && this.#taken.has(name.toLowerCase()));
    let name = wanted;
    for (let n = 2; !free(name); n++) name = `${wanted}-${n}`;
    this.#taken.add(`${name}${extension}`.toLowerCase());
    if (alsoDirectory) this.#taken.add(name.toLowerCase());
    return `${this.path}${name}${extension}`;
  }
}

/** A folder's own name as a directory name, so that an import makes the folder of that name again. */
const directoryName = (name: string): string => {
  const safe = name.replace(/[/\\\u0000-\u001f]/g, '-').trim();
  return safe === '' || safe === '.' || safe === '..' ? 'folder' : safe;
};

const fileName = (meta: ArtifactMeta): string => slugify(meta.title) || meta.type.replace('_', '-');

/**
 * The files of an export, in tree order, from the catalog alone (no body is read): an artifact
 * becomes `slug.md`, its children go into the directory `slug/` beside it; a folder becomes a
 * directory of its own name holding its pages and subfolders. Only what `canRead` allows is
 * visited, so an unreadable branch never shows.
 */
export function* exportLayout(
  view: CatalogView,
  selection: { artifact: ArtifactMeta } | { folder: FolderRecord | null },
  canRead: (workspaceId: string) => boolean,
): Generator<ExportEntry> {
  const readable = <T extends { workspaceId: string }>(items: readonly T[]) =>
    items.filter((item) => canRead(item.workspaceId));

  function* artifact(meta: ArtifactMeta, dir: Directory, parentPath?: string): Generator<ExportEntry> {
    const children = readable(view.children(meta.id)).filter((child) => child.type !== 'page');
    const path = dir.name(fileName(meta), '.md', children.length > 0);
    yield { meta, path, ...(parentPath ? { parentPath } : {}) };
    if (!children.length) return;
    const below = new Directory(`${path.slice(0, -'.md'.length)}/`);
    for (const child of children) yield* artifact(child, below, path);
  }

  /** Subfolders are named first: a folder keeps its exact name, the files beside it give way. */
  function* folder(
    record: FolderRecord | null,
    dir: Directory,
    first?: () => Generator<ExportEntry>,
  ): Generator<ExportEntry> {
    const subfolders = readable(view.subfolders(record?.id ?? null)).map(
      (sub) => [sub, new Directory(`${dir.name(directoryName(sub.name), '')}/`)] as const,
    );
    if (first) yield* first();
    for (const page of readable(view.children(record?.id ?? null, 'page'))) yield* artifact(page, dir);
    for (const [sub, below] of subfolders) yield* folder(sub, below);
  }

  const top = new Directory('');
  if ('artifact' in selection) {
    yield* artifact(selection.artifact, top);
    return;
  }
  if (selection.folder === null) {
    yield* folder(null, top, function* () {
      for (const product of readable(view.children(null, 'product'))) yield* artifact(product, top);
    });
    return;
  }
  yield* folder(selection.folder, new Directory(`${top.name(directoryName(selection.folder.name), '')}/`));
}
