import { artifactType } from '../../artifacts/index.js';
import { InvalidInputError } from '../../errors.js';
import type { PushedCatalog, PushedEntry } from './pushed-catalog.js';

const typeName = (type: PushedEntry['type']): string =>
  type === 'folder' ? 'folder' : artifactType(type).name.toLowerCase();

/** Folders above `entry` at most: deeper is a cycle (a folder put under itself). */
const MAX_FOLDER_DEPTH = 1_000;

/**
 * Where a file the commit added or changed sits, once the whole commit is laid over the catalog
 * (a capability and its first feature may come in one commit): a parent of the type its type
 * belongs under, which is there, in the same workspace (a child inherits its parent's workspace).
 */
export function checkPlacement(catalog: PushedCatalog, entry: PushedEntry): void {
  const wanted = entry.type === 'folder' ? 'folder' : artifactType(entry.type).parent;
  if (wanted === null) {
    if (entry.parentId !== null) throw new InvalidInputError(`a ${typeName(entry.type)} has no parent`);
    return;
  }
  if (entry.parentId === null) {
    if (wanted === 'folder') return;
    throw new InvalidInputError(`a ${typeName(entry.type)} needs a parent ${typeName(wanted)}`);
  }
  const parent = catalog.get(entry.parentId);
  if (!parent) throw new InvalidInputError(`the parent ${entry.parentId} names no ${typeName(wanted)}`);
  if (parent.type !== wanted) {
    throw new InvalidInputError(
      `a ${typeName(entry.type)} goes under a ${typeName(wanted)}, not a ${typeName(parent.type)}`,
    );
  }
  if (parent.workspaceId !== entry.workspaceId) {
    throw new InvalidInputError(
      `a ${typeName(entry.type)} is in its parent's workspace ${parent.workspaceId}, not ${entry.workspaceId}`,
    );
  }
  if (entry.type === 'folder') checkNoCycle(catalog, entry);
}

function checkNoCycle(catalog: PushedCatalog, folder: PushedEntry): void {
  let parentId = folder.parentId;
  for (let depth = 0; parentId !== null && depth < MAX_FOLDER_DEPTH; depth++) {
    if (parentId === folder.id) throw new InvalidInputError('a folder cannot be inside itself or a folder under it');
    parentId = catalog.get(parentId)?.parentId ?? null;
  }
  if (parentId !== null) throw new InvalidInputError('a folder cannot be inside itself or a folder under it');
}

/**
 * What a removed or re-homed entry leaves behind: a removed artifact or folder takes its children
 * with it (in the same commit), and children stay in their parent's workspace when it changes.
 * Returns the child that breaks this, and why.
 */
export function strandedChild(
  catalog: PushedCatalog,
  entry: PushedEntry,
  removed: boolean,
): { readonly child: PushedEntry; readonly rule: string } | undefined {
  for (const child of catalog.childrenOf(entry.id)) {
    if (removed) {
      return {
        child,
        rule: `its ${typeName(entry.type)} ${entry.path} is deleted: delete or move this ${typeName(child.type)} in the same commit`,
      };
    }
    if (child.workspaceId !== entry.workspaceId) {
      return {
        child,
        rule: `its parent ${entry.path} is now in workspace ${entry.workspaceId}: a ${typeName(child.type)} is in its parent's workspace, change it in the same commit`,
      };
    }
  }
  return undefined;
}
