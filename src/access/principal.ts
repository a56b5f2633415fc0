export type WorkspaceRole = 'viewer' | 'editor' | 'admin';

/** A signed-in user acting inside one organization, with their roles there. */
export interface Principal {
  readonly userId: string;
  readonly name: string;
  readonly email: string;
  readonly orgId: string;
  readonly isOwner: boolean;
  /** Role per workspace id; an owner is admin everywhere whatever this holds. */
  readonly roles: ReadonlyMap<string, WorkspaceRole>;
}
