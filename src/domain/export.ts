import path from 'node:path';
import { NotFoundError } from '../errors.js';
import { isUuid } from '../ids.js';
import { exportLayout, type ExportEntry } from './export-layout.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { ExportFile, ExportSelection } from './types.js';

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** YAML that reads back as written: ids plain, any other text a JSON string (a YAML double-quoted scalar). */
const frontmatter = (fields: [string, string | undefined][]): string =>
  `---\n${fields
    .filter((field): field is [string, string] => field[1] !== undefined)
    .map(([key, value]) => `${key}: ${isUuid(value) || key === 'type' ? value : JSON.stringify(value)}\n`)
    .join('')}---\n`;

/**
 * The body with each link to an exported artifact (its web address, as a link target or a
 * reference definition) made the relative path of that artifact's file, the anchor kept: the
 * import makes such links into links to the artifacts again. Other links stay as they are.
 */
function relativeLinks(body: string, orgId: string, from: string, pathOf: ReadonlyMap<string, string>): string {
  const target = new RegExp(
    `(\\]\\(\\s*<?|^ {0,3}\\[[^\\]\\n]+\\]:[ \\t]*<?)(?:https?://[^\\s/)>]+)?/o/${orgId}/a/(${UUID})(?=[#)>\\s"']|$)`,
    'gmi',
  );
  return body.replace(target, (match: string, head: string, id: string) => {
    const file = pathOf.get(id.toLowerCase());
    return file === undefined ? match : `${head}${path.posix.relative(path.posix.dirname(`/${from}`), `/${file}`)}`;
  });
}

/**
 * The markdown files of an artifact and all under it, a folder and all in it, or the whole
 * organization, as the actor may read them, one at a time: paths come from the catalog first,
 * then each body is read and handed on, so 10,000 artifacts never sit in memory together.
 * Each file's frontmatter names its id, type, title and parent (the parent's file when it is
 * exported too, else its id), as `specbase import` reads them.
 */
export async function* exportFiles(
  deps: DomainDeps,
  scope: Scope,
  selection: ExportSelection,
): AsyncGenerator<ExportFile> {
  const view = await deps.store.view(scope.orgId);
  const start =
    'artifactId' in selection
      ? { artifact: await scope.readable(selection.artifactId) }
      : { folder: 'folderId' in selection ? await scope.readableFolder(selection.folderId) : null };
  const entries: ExportEntry[] = [...exportLayout(view, start, (workspaceId) => scope.canRead(workspaceId))];
  const pathOf = new Map(entries.map((entry) => [entry.meta.id, entry.path]));
  for (const entry of entries) {
    const record = await deps.store.read(scope.orgId, entry.meta.id).catch((error: unknown) => {
      // Deleted since the catalog was read: the export is of what is there.
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
    if (!record) continue;
    const { meta } = entry;
    const parent =
      entry.parentPath !== undefined
        ? path.posix.relative(path.posix.dirname(`/${entry.path}`), `/${entry.parentPath}`)
        : meta.type === 'page' || meta.parentId === null
          ? undefined
          : meta.parentId;
    yield {
      path: entry.path,
      text:
        frontmatter([
          ['id', meta.id],
          ['type', meta.type],
          ['parent', parent],
          ['title', record.title],
          ['requirementType', record.requirementType],
        ]) + relativeLinks(record.body, scope.orgId, entry.path, pathOf),
    };
  }
}
