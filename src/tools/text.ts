import type { ArtifactView, EditView, FolderView, ListItemView, SearchResultView } from '../domain/types.js';

/** The text blocks the model reads: short, with the ids it needs for the next call. */

export const withArticle = (name: string): string => `${/^[AEIOU]/i.test(name) ? 'an' : 'a'} ${name}`;

const shortVersion = (version: string): string => version.slice(0, 12);

export function artifactText(view: ArtifactView): string {
  const kind = view.requirementType ? `${view.type} ${view.requirementType}` : view.type;
  return `[${kind} ${view.id}]\n${view.content}`;
}

export function listText(items: readonly ListItemView[], what: string): string {
  if (items.length === 0) return `No ${what}.`;
  return [`${items.length} ${what}:`, ...items.map((item) => `- ${item.title} (${item.id})`)].join('\n');
}

export function searchText(results: readonly SearchResultView[]): string {
  if (results.length === 0) return 'No results. Try other words or fewer artifactTypes.';
  return results
    .map((r) => `- ${r.type} ${r.id} "${r.title}" score ${r.score.toFixed(2)}\n  ${r.preview.replace(/\s+/g, ' ')}`)
    .join('\n');
}

export function editText(view: EditView): string {
  return `Edited "${view.title}" (${view.id}): +${view.added} -${view.removed} lines, version ${shortVersion(view.version)}.\n${view.diff}`;
}

export function createdText(view: ArtifactView): string {
  return `Created ${view.type} "${view.title}" with id ${view.id}.\n${artifactText(view)}`;
}

export function foldersText(folders: readonly FolderView[]): string {
  if (folders.length === 0) return 'No folders.';
  return folders
    .map((f) => `- ${f.name} (${f.id})${f.parentFolderId ? ` in ${f.parentFolderId}` : ''}, ${f.pageCount} pages`)
    .join('\n');
}
