import { aliasesLine, headingTitle } from '../artifacts/index.js';

/** Frontmatter the import acts on: where the file goes and what it is called. */
const USED = new Set(['title', 'type', 'parent', 'requirementType']);
/** Frontmatter kept in the document, where search reads it. */
const KEPT = new Set(['aliases', 'tags']);

export const fieldText = (fields: Readonly<Record<string, unknown>>, key: string): string | undefined => {
  const value = fields[key];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
};

/** A list field as Obsidian and Basic Memory write it: a YAML list, or one comma-separated line. */
export function fieldNames(fields: Readonly<Record<string, unknown>>, key: string): string[] {
  const value = fields[key];
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return items
    .filter((item): item is string | number => typeof item === 'string' || typeof item === 'number')
    .map((item) => String(item).trim().replace(/^#/, ''))
    .filter(Boolean);
}

/** The frontmatter keys the import neither acts on nor keeps: reported, never dropped silently. */
export const droppedFields = (fields: Readonly<Record<string, unknown>>): string[] =>
  Object.keys(fields).filter((key) => !USED.has(key) && !KEPT.has(key));

/**
 * The body with its aliases and tags as lines under the heading. Search reads the aliases line
 * back (statedAliases) and finds the artifact by each alias as by its title; the lines stay
 * visible and editable like the `**Requirement type:**` line, so editing them is how the names change.
 */
export function withNames(body: string, aliases: readonly string[], tags: readonly string[]): string {
  const lines = [
    ...(aliases.length ? [aliasesLine(aliases)] : []),
    ...(tags.length ? [`**Tags:** ${tags.join(', ')}`] : []),
  ];
  if (!lines.length) return body;
  const block = lines.join('\n\n');
  if (headingTitle(body) === undefined) return `${block}\n\n${body.replace(/^\n+/, '')}`;
  const headingEnd = body.search(/^#[ \t][^\n]*$/m);
  const lineEnd = body.indexOf('\n', headingEnd);
  if (lineEnd < 0) return `${body}\n\n${block}\n`;
  return `${body.slice(0, lineEnd)}\n\n${block}\n\n${body.slice(lineEnd).replace(/^\n+/, '')}`;
}
