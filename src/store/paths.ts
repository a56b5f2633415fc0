import type { ArtifactTypeDef } from '../artifacts/index.js';

const SLUG_MAX_CHARS = 50;

/** Lowercase ASCII words joined by dashes, readable in a clone; empty when nothing is left. */
export function slugify(text: string): string {
  const ascii = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  const slug = ascii.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return slug.slice(0, SLUG_MAX_CHARS).replace(/-+$/, '');
}

export const shortId = (id: string): string => id.slice(0, 8);

export const PRODUCT_PATH = 'product.md';
export const PAGES_DIR = 'pages';
export const FOLDER_FILE = '_folder.md';

/**
 * Where an artifact's file lives, fixed at creation. `folderDir` is the directory of a page's
 * folder (`pages/...`); other types live in their type's directory.
 */
export function artifactPath(def: ArtifactTypeDef, id: string, title: string, folderDir?: string): string {
  if (def.type === 'product') return PRODUCT_PATH;
  const dir = def.type === 'page' ? (folderDir ?? PAGES_DIR) : def.pathSegment;
  return `${dir}/${slugify(title) || def.singular.replace(/_/g, '-')}-${shortId(id)}.md`;
}

/** A folder's directory: its name's slug, or slug-id8 when a sibling already took it. */
export function folderDirectory(parentDir: string, name: string, id: string, takenDirs: ReadonlySet<string>): string {
  const slug = slugify(name) || 'folder';
  const plain = `${parentDir}/${slug}`;
  return takenDirs.has(plain) ? `${plain}-${shortId(id)}` : plain;
}

export const dirnameOf = (path: string): string => {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
};
