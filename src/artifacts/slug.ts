const SLUG_MAX_CHARS = 50;

/** Lowercase ASCII words joined by dashes, readable in a clone; empty when nothing is left. */
export function slugify(text: string): string {
  const ascii = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const slug = ascii.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return slug.slice(0, SLUG_MAX_CHARS).replace(/-+$/, '');
}
