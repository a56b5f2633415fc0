import {
  artifactType,
  headingTitle,
  isArtifactType,
  REQUIREMENT_TYPES,
  type ArtifactType,
  type RequirementType,
} from '../artifacts/index.js';
import { InvalidInputError, SpecbaseError } from '../errors.js';
import { isUuid } from '../ids.js';
import { checkDocumentText } from '../patch/index.js';
import { createArtifact, createFolder } from './create.js';
import type { DomainDeps } from './ports.js';
import type { Scope } from './scope.js';
import type { ImportOptions, ImportReport, ImportSource } from './types.js';

/** What becomes of one file: a page in the folders of its directories, or an artifact under a parent. */
type Plan =
  | { readonly kind: 'page'; readonly source: ImportSource; readonly folders: readonly string[] }
  | {
      readonly kind: 'tree';
      readonly source: ImportSource;
      readonly type: ArtifactType;
      readonly parent: { id: string } | { file: string };
    };

type Entry<K extends 'imported' | 'skipped' | 'refused'> = ImportReport[K][number];

const dirname = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf('/')));
const basename = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** `a/b/../c.md` -> `a/c.md`; undefined when it climbs out of the directory imported. */
function normalized(path: string): string | undefined {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

const fieldText = (fields: Readonly<Record<string, unknown>>, key: string): string | undefined => {
  const value = fields[key];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
};

/** The plan for one file, or why it cannot be taken. */
function planOf(
  source: ImportSource,
  sources: ReadonlyMap<string, ImportSource>,
  imported: ReadonlyMap<string, string>,
  maxBytes: number,
): Plan | string {
  if (source.problem) return source.problem;
  if (source.bytes > maxBytes) return `the file is ${source.bytes} bytes; the limit is ${maxBytes}`;
  try {
    checkDocumentText('', source.body ?? '');
  } catch (error) {
    if (error instanceof SpecbaseError) return error.message;
    throw error;
  }
  const fields = source.fields ?? {};
  const type = fields['type'];
  if (type === undefined || type === 'page')
    return { kind: 'page', source, folders: dirname(source.path).split('/').filter(Boolean) };
  if (!isArtifactType(type) || !artifactType(type).creatable) return `unknown type ${JSON.stringify(type)}`;
  const def = artifactType(type);
  const parentType = artifactType(def.parent as ArtifactType).name.toLowerCase();
  const parent = fieldText(fields, 'parent');
  if (!parent)
    return `missing parent: a ${def.name.toLowerCase()} names its ${parentType} by id or by the relative path of another file`;
  if (isUuid(parent)) return { kind: 'tree', source, type, parent: { id: parent.toLowerCase() } };
  const candidates = [normalized(`${dirname(source.path)}/${parent}`), normalized(parent)].filter(
    (p): p is string => p !== undefined,
  );
  const file = candidates.find((p) => sources.has(p) || imported.has(p));
  if (!file) return `missing parent ${JSON.stringify(parent)}: no such file among those imported`;
  return { kind: 'tree', source, type, parent: { file } };
}

/** The title a file gives: its first `# ` heading, else a `title` field, else its file name. */
function titleOf(source: ImportSource): string | undefined {
  if (headingTitle(source.body ?? '') !== undefined) return undefined;
  return fieldText(source.fields ?? {}, 'title') ?? basename(source.path).replace(/\.md$/i, '');
}

/**
 * Imports markdown files, one commit each with a `Specbase-Import` trailer naming the file: a
 * file whose frontmatter names `type` and `parent` (an id, or another file's relative path)
 * becomes that artifact of the product tree; any other a page in folders mirroring its
 * directories. Files imported before are skipped; a file that cannot be taken is listed with
 * the reason, and nothing of it is written. `dryRun` plans and checks, and writes nothing.
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
  const ids = new Map(imported);
  const folderIds = new Map<string, string | null>([['', null]]);
  const folders = await deps.store.folders(scope.orgId);
  let step = 0;
  for (const plan of ordered) {
    options.onProgress?.(++step, ordered.length);
    const path = plan.source.path;
    try {
      let parentId: string | undefined;
      if (plan.kind === 'tree') {
        parentId = 'id' in plan.parent ? plan.parent.id : ids.get(plan.parent.file);
        if (parentId === undefined)
          throw new InvalidInputError(`its parent ${'file' in plan.parent ? plan.parent.file : ''} was not imported`);
      } else if (plan.folders.length) {
        parentId =
          (await folderFor(deps, scope, plan.folders, folders, folderIds, options.dryRun, report)) ?? undefined;
      }
      const title = titleOf(plan.source);
      const type = plan.kind === 'tree' ? plan.type : 'page';
      if (options.dryRun) {
        if (parentId !== undefined && !parentId.startsWith('planned:')) {
          if (type === 'page') await scope.readableFolder(parentId);
          else await scope.writable(parentId, artifactType(type).parent as ArtifactType);
        }
        ids.set(path, `planned:${path}`);
        report.imported.push({ path, type, title: title ?? headingTitle(plan.source.body ?? '')! });
        continue;
      }
      const requirementType = plan.source.fields?.['requirementType'];
      const view = await createArtifact(deps, scope, type, {
        ...(parentId !== undefined ? { parentId } : {}),
        ...(title !== undefined ? { title } : {}),
        content: plan.source.body ?? '',
        ...((REQUIREMENT_TYPES as readonly unknown[]).includes(requirementType)
          ? { requirementType: requirementType as RequirementType }
          : {}),
        importedFrom: path,
      });
      ids.set(path, view.id);
      report.imported.push({ path, type, title: view.title, id: view.id });
    } catch (error) {
      if (!(error instanceof SpecbaseError)) throw error;
      report.refused.push({ path, reason: error.message });
    }
  }
  return { ...report, dryRun: options.dryRun };
}

/** Pages in directory order; artifacts after the files they name as parents (a cycle is refused). */
function inParentOrder(
  plans: Map<string, Plan>,
  imported: ReadonlyMap<string, string>,
  refused: { path: string; reason: string }[],
): Plan[] {
  const ordered: Plan[] = [];
  const state = new Map<string, 'visiting' | 'done' | 'refused'>();
  const visit = (path: string): boolean => {
    const seen = state.get(path);
    if (seen) return seen === 'done';
    const plan = plans.get(path);
    if (!plan) return imported.has(path);
    state.set(path, 'visiting');
    if (plan.kind === 'tree' && 'file' in plan.parent) {
      const parentFile = plan.parent.file;
      const parentPlan = plans.get(parentFile);
      const expected = artifactType(plan.type).parent;
      if (state.get(parentFile) === 'visiting')
        return refuse(path, `its parent ${parentFile} is among its own descendants`);
      if (parentPlan && (parentPlan.kind !== 'tree' || parentPlan.type !== expected)) {
        return refuse(
          path,
          `its parent ${parentFile} is not a ${artifactType(expected as ArtifactType).name.toLowerCase()}`,
        );
      }
      if (!visit(parentFile)) return refuse(path, `its parent ${parentFile} cannot be imported`);
    }
    state.set(path, 'done');
    ordered.push(plan);
    return true;
  };
  const refuse = (path: string, reason: string): false => {
    state.set(path, 'refused');
    refused.push({ path, reason });
    return false;
  };
  for (const path of [...plans.keys()].sort()) visit(path);
  return ordered;
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
  let parentId: string | null = null;
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
