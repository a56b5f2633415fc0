import { artifactType, headingTitle, isArtifactType, type ArtifactType } from '../artifacts/index.js';
import { SpecbaseError } from '../errors.js';
import { isUuid } from '../ids.js';
import { checkDocumentText } from '../patch/index.js';
import { fieldText } from './import-fields.js';
import { normalizedPath } from './import-links.js';
import type { ImportSource } from './types.js';

/**
 * What becomes of one file: a page in the folders of its directories, an artifact under a
 * parent, or (a `type: product` file, as an export writes one) the organization's own product,
 * which its children then name as their parent.
 */
export type Plan =
  | { readonly kind: 'page'; readonly source: ImportSource; readonly folders: readonly string[] }
  | { readonly kind: 'product'; readonly source: ImportSource }
  | {
      readonly kind: 'tree';
      readonly source: ImportSource;
      readonly type: ArtifactType;
      readonly parent: { id: string } | { file: string };
    };

const dirname = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf('/')));
export const basename = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** The plan for one file, or why it cannot be taken. */
export function planOf(
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
  if (type === 'product') return { kind: 'product', source };
  if (!isArtifactType(type) || !artifactType(type).creatable) return `unknown type ${JSON.stringify(type)}`;
  const def = artifactType(type);
  const parentType = artifactType(def.parent as ArtifactType).name.toLowerCase();
  const parent = fieldText(fields, 'parent');
  if (!parent)
    return `missing parent: a ${def.name.toLowerCase()} names its ${parentType} by id or by the relative path of another file`;
  if (isUuid(parent)) return { kind: 'tree', source, type, parent: { id: parent.toLowerCase() } };
  const candidates = [normalizedPath(`${dirname(source.path)}/${parent}`), normalizedPath(parent)].filter(
    (p): p is string => p !== undefined,
  );
  const file = candidates.find((p) => sources.has(p) || imported.has(p));
  if (!file) return `missing parent ${JSON.stringify(parent)}: no such file among those imported`;
  return { kind: 'tree', source, type, parent: { file } };
}

/** The title a file gives: its first `# ` heading, else a `title` field, else its file name. */
export function titleOf(source: ImportSource): string | undefined {
  if (headingTitle(source.body ?? '') !== undefined) return undefined;
  return fieldText(source.fields ?? {}, 'title') ?? basename(source.path).replace(/\.md$/i, '');
}

/** Pages in directory order; artifacts after the files they name as parents (a cycle is refused). */
export function inParentOrder(
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
      const parentType =
        parentPlan?.kind === 'product' ? 'product' : parentPlan?.kind === 'tree' ? parentPlan.type : undefined;
      if (parentPlan && parentType !== expected) {
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
