import { slugify, type ArtifactTypeDef } from '../../artifacts/index.js';

export { slugify };

export const shortId = (id: string): string => id.slice(0, 8);

export const PRODUCT_PATH = 'product.md';
export const FOLDERS_DIR = 'folders';

/**
 * Two directory levels from the id's first four hex digits. Ids are random, so each level holds
 * at most 256 entries and a leaf a handful of files whatever the organization's size: a commit
 * that changes one file rewrites four small trees (the two shard levels, the type directory, the root),
 * never a directory that lists every artifact of its type.
 */
export const shardDir = (dir: string, id: string): string => `${dir}/${id.slice(0, 2)}/${id.slice(2, 4)}`;

export const basenameOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

export const dirnameOf = (path: string): string => {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
};

/**
 * Where an artifact's file lives, fixed at creation: `<type dir>/<id[0:2]>/<id[2:4]>/<slug>-<id8>.md`
 * (pages too, their folder is the `parent` in the frontmatter); the product is `product.md`.
 */
export function artifactPath(def: ArtifactTypeDef, id: string, title: string): string {
  if (def.type === 'product') return PRODUCT_PATH;
  return `${shardDir(def.pathSegment, id)}/${slugify(title) || def.singular.replace(/_/g, '-')}-${shortId(id)}.md`;
}

/** A folder's record: `folders/<id[0:2]>/<id[2:4]>/<name-slug>-<id8>.md`; its parent is in the frontmatter. */
export function folderPath(id: string, name: string): string {
  return `${shardDir(FOLDERS_DIR, id)}/${slugify(name) || 'folder'}-${shortId(id)}.md`;
}

/**
 * Where an artifact's file written in the first, flat layout moves (the one time a path changes,
 * see migrate-layout.ts): the same file name in its shard, so slug and id8 stay what they were.
 */
export function shardedArtifactPath(def: ArtifactTypeDef, id: string, currentPath: string): string {
  if (def.type === 'product') return PRODUCT_PATH;
  return `${shardDir(def.pathSegment, id)}/${basenameOf(currentPath)}`;
}

/** Where a folder record moves from the first layout (`pages/<dirs>/_folder.md`); one already in its shard stays. */
export function shardedFolderPath(id: string, name: string, currentPath: string): string {
  return dirnameOf(currentPath) === shardDir(FOLDERS_DIR, id) ? currentPath : folderPath(id, name);
}
