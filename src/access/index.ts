import { NotFoundError, PermissionDeniedError } from '../errors.js';
import type { Principal, WorkspaceRole } from './principal.js';

export type { Principal, WorkspaceRole } from './principal.js';
export { WORKSPACE_ROLES, isWorkspaceRole } from './roles.js';

/** Each role includes every permission of the roles ranked below it. */
const RANK: Readonly<Record<WorkspaceRole, number>> = { viewer: 1, editor: 2, admin: 3 };

/** The role that governs the principal in a workspace; an owner is admin everywhere. */
export function effectiveRole(p: Principal, workspaceId: string): WorkspaceRole | undefined {
  return p.isOwner ? 'admin' : p.roles.get(workspaceId);
}

const hasAtLeast = (p: Principal, workspaceId: string, needed: WorkspaceRole): boolean => {
  const role = effectiveRole(p, workspaceId);
  return role !== undefined && RANK[role] >= RANK[needed];
};

export const canRead = (p: Principal, workspaceId: string): boolean => hasAtLeast(p, workspaceId, 'viewer');

export const canWrite = (p: Principal, workspaceId: string): boolean => hasAtLeast(p, workspaceId, 'editor');

export const canManage = (p: Principal, workspaceId: string): boolean => hasAtLeast(p, workspaceId, 'admin');

/** An owner, or an admin of every workspace: may see and cut other members' connections. */
export const isOrganizationAdmin = (p: Principal, allWorkspaceIds: readonly string[]): boolean =>
  p.isOwner || (allWorkspaceIds.length > 0 && allWorkspaceIds.every((workspaceId) => canManage(p, workspaceId)));

/** The subset of `all` the principal may read. */
export function readableWorkspaces(p: Principal, all: readonly string[]): Set<string> {
  return new Set(all.filter((workspaceId) => canRead(p, workspaceId)));
}

/** True when every workspace of `allWorkspaceIds` is readable (a clone carries them all). */
export function canReadAll(p: Principal, allWorkspaceIds: readonly string[]): boolean {
  return allWorkspaceIds.every((workspaceId) => canRead(p, workspaceId));
}

/** Unreadable is reported as "artifact not found" so that an artifact's existence never leaks. */
export function assertCanRead(p: Principal, workspaceId: string): void {
  if (!canRead(p, workspaceId)) throw new NotFoundError('artifact');
}

/** Unreadable is "not found" here too; only a principal who can see the workspace learns it is read-only. */
export function assertCanWrite(p: Principal, workspaceId: string): void {
  assertCanRead(p, workspaceId);
  if (!canWrite(p, workspaceId)) {
    throw new PermissionDeniedError('permission denied: your role in this workspace does not allow changes');
  }
}
