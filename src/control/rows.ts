import type { Organization, PersonalAccessToken, User, Workspace } from './types.js';

/** Column lists and row shapes shared by the stores that read the same tables. */
export const USER_COLUMNS = 'u.id, u.issuer, u.subject, u.email, u.name, u.created_at';

export interface UserRow {
  id: string;
  issuer: string;
  subject: string;
  email: string;
  name: string;
  created_at: string;
}

export const toUser = (row: UserRow): User => ({
  id: row.id,
  issuer: row.issuer,
  subject: row.subject,
  email: row.email,
  name: row.name,
  createdAt: row.created_at,
});

export interface OrganizationRow {
  id: string;
  name: string;
  created_at: string;
}

export const toOrganization = (row: OrganizationRow): Organization => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
});

export interface WorkspaceRow {
  id: string;
  org_id: string;
  name: string;
  is_default: number;
}

export const toWorkspace = (row: WorkspaceRow): Workspace => ({
  id: row.id,
  orgId: row.org_id,
  name: row.name,
  isDefault: row.is_default === 1,
});

export interface TokenRow {
  id: string;
  user_id: string;
  name: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  read_only: number;
}

export const toToken = (row: TokenRow): PersonalAccessToken => ({
  id: row.id,
  userId: row.user_id,
  name: row.name,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
  readOnly: Number(row.read_only) === 1,
});
