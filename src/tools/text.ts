import { artifactType } from '../artifacts/index.js';
import type {
  ArtifactLink,
  ArtifactView,
  EditView,
  FolderView,
  ListItemView,
  SearchResultsView,
  UnresolvedLink,
} from '../domain/types.js';

/** The text blocks the model reads: short, with the ids, version and link it needs next. */

/**
 * How a document links to another, in the create and edit descriptions: the forms the link index
 * counts (store/layout/links.ts). Short: it is read in tools/list on every conversation.
 */
export const HOW_TO_LINK = 'Link: [[Title]] or [text](url or specbase:// URI).';

/** "a User Type", "an Acceptance Criterion": by sound, which for "U" + consonant is "a". */
export const withArticle = (name: string): string => `${/^(?:[AEIO]|U(?![sn]))/i.test(name) ? 'an' : 'a'} ${name}`;

export const counted = (count: number, singular: string, plural: string): string =>
  `${count} ${count === 1 ? singular : plural}`;

/**
 * The labels stay on lines of their own outside explicit document tags: a model once copied a
 * label line into a patch's context, and the patch could not apply.
 */
const linkRef = (r: { type: string; id: string; title: string; deleted?: true }) =>
  `${r.type} ${r.id} "${r.title}"${r.deleted ? ' (deleted)' : ''}`;

/** "Links to: …" and "Unresolved links: …" lines, each only when there is something to list. */
export function linksText(links?: readonly ArtifactLink[], unresolved?: readonly UnresolvedLink[]): string {
  const to = links?.length ? `\nLinks to: ${links.map(linkRef).join('; ')}` : '';
  const nowhere = unresolved?.length
    ? `\nUnresolved links: ${unresolved.map((u) => `${u.link} (${u.reason})`).join('; ')}`
    : '';
  return to + nowhere;
}

export function artifactText(view: ArtifactView): string {
  const name = artifactType(view.type).name;
  const kind = view.requirementType ? `${name} (${view.requirementType})` : name;
  const document = view.content.endsWith('\n') ? view.content : `${view.content}\n`;
  const referenced = view.referencedBy?.length ? `\nReferenced by: ${view.referencedBy.map(linkRef).join('; ')}` : '';
  return (
    `${kind} ${view.id}, version ${view.version}, ${view.url}\n` +
    `The markdown document is between the tags (the tags are not part of it):\n<document>\n${document}</document>${linksText(view.links, view.unresolvedLinks)}${referenced}`
  );
}

export function listText(items: readonly ListItemView[], singular: string, plural: string): string {
  if (items.length === 0) return `No ${plural}.`;
  return [`${counted(items.length, singular, plural)}:`, ...items.map((item) => `- ${item.title} (${item.id})`)].join(
    '\n',
  );
}

export function searchText({ results, notice }: SearchResultsView): string {
  const found =
    results.length === 0
      ? 'No results. Try other words or fewer artifactTypes.'
      : results.map((r) => `- ${r.type} ${r.id} "${r.title}" score ${r.score.toFixed(2)}\n  ${r.preview}`).join('\n');
  return notice ? `${notice}\n${found}` : found;
}

export function editText(view: EditView): string {
  return (
    `Edited "${view.title}" (${view.id}): +${view.added} -${view.removed} lines, version ${view.version}, ${view.url}\n` +
    view.diff +
    linksText(view.links, view.unresolvedLinks)
  );
}

export function createdText(view: ArtifactView): string {
  return `Created ${artifactType(view.type).name.toLowerCase()} "${view.title}".\n${artifactText(view)}`;
}

export function foldersText(folders: readonly FolderView[]): string {
  if (folders.length === 0) return 'No folders.';
  return folders
    .map(
      (f) =>
        `- ${f.name} (${f.id})${f.parentFolderId ? ` in ${f.parentFolderId}` : ''}, ${counted(f.pageCount, 'page', 'pages')}`,
    )
    .join('\n');
}
