/** A change request's life: open while it is drafted and reviewed, then merged onto `main` or closed. */
export type ChangeRequestState = 'open' | 'merged' | 'closed';

/** One change request: its branch is `cr/{number}` in the organization's repository. */
export interface ChangeRequest {
  readonly orgId: string;
  readonly number: number;
  readonly title: string;
  readonly description: string;
  readonly authorId: string | null;
  /** The MCP client (or "web", "git") it was opened through. */
  readonly client: string | null;
  readonly state: ChangeRequestState;
  /** `main`'s commit when the branch was made. */
  readonly baseCommit: string;
  /** When its author said it is ready for review; null while it is still being drafted. */
  readonly submittedAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly mergedAt: string | null;
  readonly mergedBy: string | null;
  readonly mergeCommit: string | null;
  readonly closedAt: string | null;
  readonly closedBy: string | null;
}

export interface ChangeRequestComment {
  readonly id: string;
  readonly orgId: string;
  readonly number: number;
  readonly authorId: string | null;
  readonly body: string;
  readonly createdAt: string;
}

/** How a workspace's changes are reviewed; both off unless an admin turns them on. */
export interface ReviewRules {
  /** Every MCP write in the workspace becomes a proposal in a change request. */
  readonly assistantChangesNeedReview: boolean;
  /** Four eyes: the author of a change request touching the workspace cannot merge it. */
  readonly authorCannotMerge: boolean;
}

export interface ChangeRequestStore {
  /** A new open change request, numbered next in its organization. */
  open(input: {
    orgId: string;
    title: string;
    description?: string;
    authorId: string;
    client?: string | null;
    baseCommit: string;
  }): Promise<ChangeRequest>;
  get(orgId: string, number: number): Promise<ChangeRequest | undefined>;
  /** Newest first; one state or all. */
  list(orgId: string, options?: { state?: ChangeRequestState; limit?: number }): Promise<ChangeRequest[]>;
  /** The open, not yet submitted change request a user drafts through one client (the policy's proposals). */
  draftOf(orgId: string, authorId: string, client: string | null): Promise<ChangeRequest | undefined>;
  /** Marks a new commit on it (or a new title, description, or submission). */
  update(
    orgId: string,
    number: number,
    changes: { title?: string; description?: string; submitted?: boolean; baseCommit?: string },
  ): Promise<ChangeRequest>;
  /**
   * Moves it from `from` to `to`; ConflictError when it is not in `from` any more (two
   * reviewers at once: one wins). Merged and closed record who and when.
   */
  transition(input: {
    orgId: string;
    number: number;
    from: ChangeRequestState;
    to: ChangeRequestState;
    by: string;
    mergeCommit?: string;
  }): Promise<ChangeRequest>;
  comment(input: { orgId: string; number: number; authorId: string; body: string }): Promise<ChangeRequestComment>;
  comments(orgId: string, number: number): Promise<ChangeRequestComment[]>;
  /** Each workspace's review rules; workspaces without a row have both off. */
  reviewRules(orgId: string): Promise<ReadonlyMap<string, ReviewRules>>;
  setReviewRules(input: { orgId: string; workspaceId: string; rules: ReviewRules; by: string }): Promise<void>;
}
