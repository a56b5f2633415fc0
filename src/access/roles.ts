import type { WorkspaceRole } from './principal.js';

export const WORKSPACE_ROLES: readonly WorkspaceRole[] = Object.freeze(['viewer', 'editor', 'admin']);

export const isWorkspaceRole = (value: unknown): value is WorkspaceRole =>
  typeof value === 'string' && (WORKSPACE_ROLES as readonly string[]).includes(value);
