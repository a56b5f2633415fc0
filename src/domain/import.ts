import {
  artifactType,
  headingTitle,
  REQUIREMENT_TYPES,
  type ArtifactType,
  type RequirementType,
} from '../artifacts/index.js';
import { InvalidInputError, SpecbaseError } from '../errors.js';
import { newId } from '../ids.js';
import { createArtifact, createFolder } from './create.js';
import { droppedFields, fieldNames, withNames } from './import-fields.js';
import { rewriteLinks, type LinkTargets } from './import-links.js';
import { basename, inParentOrder, planOf, titleOf, type Plan } from './import-plan.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { ImportOptions, ImportReport, ImportSource } from './types.js';
import { artifactUrl } from './urls.js';

type Entry<K extends 'imported' | 'skipped' | 'refused' | 'unresolvedLinks' | 'droppedFields'> =
  ImportReport[K][number];

/**
 * What links of the import can name: the artifact each file becomes (its id chosen now, so that
 * a file links to one created after it) and the names a wiki link uses for a file: its path and
 * file name without `.md`, its title and its aliases, without case; the first file wins a name.
 */
function linkTargets(
  deps: DomainDeps,
  scope: Scope,
  sources: readonly ImportSource[],
  chosen: ReadonlyMap<string, string>,
): LinkTargets {
  const named = new Map<string, string>();
  const name = (key: string, path: string) => {
    const folded = key.trim().toLowerCase();
    if (folded && !named.has(folded)) named.set(folded, path);
  };
  for (const source of sources) {
    if (!chosen.has(source.path)) continue;
    name(source.path.replace(/\.md$/i, ''), source.path);
    name(basename(source.path).replace(/\.md$/i, ''), source.path);
  }
  for (const source of sources) {
    if (!chosen.has(source.path) || source.body === undefined) continue;
    name(titleOf(source) ?? headingTitle(source.body) ?? '', source.path);
    for (const alias of fieldNames(source.fields ?? {}, 'aliases')) name(alias, source.path);
  }
  return {
    urlOf: (path) => {
      const id = chosen.get(path);
      return id === undefined ? undefined : artifactUrl(deps.baseUrl, scope.orgId, id);
    },
    fileNamed: (key) => named.get(key.toLowerCase()),
  };
}

/**
 * Imports markdown files, one commit each with a `Specbase-Import` trailer naming the file: a
 * file whose frontmatter names `type` and `parent` (an id, or another file's relative path)
 * becomes that artifact of the product tree; any other a page in folders mirroring its
 * directories. Files imported before are skipped; a file that cannot be taken is listed with
 * the reason, and nothing of it is written. `dryRun` plans and checks, and writes nothing.
 * Links between the files become links between their artifacts in the same commits; those
 * that stay as written (assets, files not imported) and frontmatter left out are reported.
 */
export async function importFiles(
  deps: DomainDeps,
  scope: Scope,
  sources: readonly ImportSource[],
  options: ImportOptions,
): Promise<ImportReport> {
  const imported = await deps.store.importedPaths(scope.orgId);
  const byPath = new Map(sources.map((s) => [s.path, s]));
  const report = {
    imported: [] as Entry<'imported'>[],
    skipped: [] as Entry<'skipped'>[],
    refused: [] as Entry<'refused'>[],
    unresolvedLinks: [] as Entry<'unresolvedLinks'>[],
    droppedFields: [] as Entry<'droppedFields'>[],
    linksRewritten: 0,
    folders: 0,
  };
  const plans = new Map<string, Plan>();
  for (const source of sources) {
    const done = imported.get(source.path);
    if (done) {
      report.skipped.push({ path: source.path, id: done });
      continue;
    }
    const plan = planOf(source, byPath, imported, deps.limits.maxDocumentBytes);
    if (typeof plan === 'string') report.refused.push({ path: source.path, reason: plan });
    else plans.set(source.path, plan);
  }
  const ordered = inParentOrder(plans, imported, report.refused);
  const productId = ordered.some((plan) => plan.kind === 'product') ? (await scope.product()).id : undefined;
  const chosen = new Map(imported);
  for (const plan of ordered) chosen.set(plan.source.path, plan.kind === 'product' ? productId! : newId());
  const targets = linkTargets(deps, scope, sources, chosen);
  const ids = new Map(imported);
  // Pages go into folders under the target folder (the top level without one).
  const target = options.folderId === undefined ? null : (await scope.readableFolder(options.folderId)).id;
  const folderIds = new Map<string, string | null>([['', target]]);
  const folders = await deps.store.folders(scope.orgId);
  let step = 0;
  for (const plan of ordered) {
    options.onProgress?.(++step, ordered.length);
    const path = plan.source.path;
    if (plan.kind === 'product') {
      ids.set(path, productId!);
      report.skipped.push({ path, id: productId!, reason: "the organization's product" });
      continue;
    }
    try {
      let parentId: string | undefined;
      if (plan.kind === 'tree') {
        parentId = 'id' in plan.parent ? plan.parent.id : ids.get(plan.parent.file);
        if (parentId === undefined)
          throw new InvalidInputError(`its parent ${'file' in plan.parent ? plan.parent.file : ''} was not imported`);
      } else {
        parentId =
          (await folderFor(deps, scope, plan.folders, folders, folderIds, options.dryRun, report)) ?? undefined;
      }
      const title = titleOf(plan.source);
      const type = plan.kind === 'tree' ? plan.type : 'page';
      const fields = plan.source.fields ?? {};
      const links = rewriteLinks(path, plan.source.body ?? '', targets);
      const content = withNames(links.body, fieldNames(fields, 'aliases'), fieldNames(fields, 'tags'));
      const dropped = droppedFields(fields);
      if (options.dryRun) {
        if (parentId !== undefined && !parentId.startsWith('planned:')) {
          if (type === 'page') await scope.readableFolder(parentId);
          else await scope.writable(parentId, artifactType(type).parent as ArtifactType);
        }
        ids.set(path, `planned:${path}`);
        report.imported.push({ path, type, title: title ?? headingTitle(plan.source.body ?? '')! });
        noteLinksAndFields(report, path, links, dropped);
        continue;
      }
      const requirementType = fields['requirementType'];
      const view = await createArtifact(deps, scope, type, {
        id: chosen.get(path)!,
        ...(parentId !== undefined ? { parentId } : {}),
        ...(title !== undefined ? { title } : {}),
        content,
        ...((REQUIREMENT_TYPES as readonly unknown[]).includes(requirementType)
          ? { requirementType: requirementType as RequirementType }
          : {}),
        importedFrom: path,
      });
      ids.set(path, view.id);
      report.imported.push({ path, type, title: view.title, id: view.id });
      noteLinksAndFields(report, path, links, dropped);
    } catch (error) {
      if (!(error instanceof SpecbaseError)) throw error;
      // Files after this one then report their links to it as unresolved, not as links.
      chosen.delete(path);
      report.refused.push({ path, reason: error.message });
    }
  }
  return { ...report, dryRun: options.dryRun };
}

/** The folder of a directory, made (with the ones above it) when there is none of that name yet. */
async function folderFor(
  deps: DomainDeps,
  scope: Scope,
  dirs: readonly string[],
  existing: readonly { id: string; name: string; parentId: string | null; workspaceId: string }[],
  known: Map<string, string | null>,
  dryRun: boolean,
  report: { folders: number },
): Promise<string | null> {
  let parentId = known.get('') ?? null;
  for (let depth = 1; depth <= dirs.length; depth++) {
    const key = dirs.slice(0, depth).join('/');
    const found = known.get(key);
    if (found !== undefined) {
      parentId = found;
      continue;
    }
    const name = dirs[depth - 1]!;
    const match = existing.find((f) => f.parentId === parentId && f.name === name && scope.canRead(f.workspaceId));
    let id: string;
    if (match) id = match.id;
    else if (dryRun || (parentId ?? '').startsWith('planned:')) {
      id = `planned:${key}`;
      report.folders++;
    } else {
      id = (await createFolder(deps, scope, { name, ...(parentId ? { parentFolderId: parentId } : {}) })).id;
      report.folders++;
    }
    known.set(key, id);
    parentId = id;
  }
  return parentId;
}

function noteLinksAndFields(
  report: {
    unresolvedLinks: Entry<'unresolvedLinks'>[];
    droppedFields: Entry<'droppedFields'>[];
    linksRewritten: number;
  },
  path: string,
  links: ReturnType<typeof rewriteLinks>,
  dropped: string[],
): void {
  report.linksRewritten += links.rewritten;
  if (links.unresolved.length) report.unresolvedLinks.push({ path, links: links.unresolved });
  if (dropped.length) report.droppedFields.push({ path, fields: dropped });
}
