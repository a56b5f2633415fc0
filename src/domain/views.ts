import type { ArtifactMeta, ArtifactRecord } from '../store/types.js';
import type { ArtifactView, ListItemView, ReadMode } from './types.js';
import { artifactUrl } from './urls.js';

/** About 500 characters, as the specification asks for concise reads. */
export const CONCISE_LENGTH = 500;

/** Cut on a word boundary so that the preview, note included, stays about `limit` long. */
export function conciseContent(body: string, limit = CONCISE_LENGTH): { content: string; truncated: boolean } {
  if (body.length <= limit) return { content: body, truncated: false };
  const note = ` …\n[truncated; mode "full" returns all ${body.length} characters]`;
  const budget = limit - note.length;
  const slice = body.slice(0, budget);
  const boundary = slice.search(/\s\S*$/);
  const cut = (boundary > budget * 0.6 ? slice.slice(0, boundary) : slice).trimEnd();
  return { content: `${cut}${note}`, truncated: true };
}

export function artifactView(baseUrl: string, orgId: string, record: ArtifactRecord, mode: ReadMode): ArtifactView {
  const { content, truncated } =
    mode === 'full' ? { content: record.body, truncated: false } : conciseContent(record.body);
  return {
    id: record.id,
    type: record.type,
    title: record.title,
    parentId: record.parentId,
    url: artifactUrl(baseUrl, orgId, record.id),
    version: record.version,
    updatedAt: record.updatedAt,
    updatedBy: record.updatedBy.name,
    truncated,
    content,
    ...(record.requirementType ? { requirementType: record.requirementType } : {}),
  };
}

export const listItemView = (baseUrl: string, orgId: string, meta: ArtifactMeta): ListItemView => ({
  id: meta.id,
  type: meta.type,
  title: meta.title,
  url: artifactUrl(baseUrl, orgId, meta.id),
  updatedAt: meta.updatedAt,
});
