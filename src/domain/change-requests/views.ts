import type { ChangeRequestState } from '../../control/types.js';

/** A change request as lists show it. */
export interface ChangeRequestView {
  readonly number: number;
  readonly title: string;
  readonly description: string;
  readonly state: ChangeRequestState;
  readonly author: { readonly id: string; readonly name: string } | null;
  readonly client: string | null;
  /** `cr/{number}`: `git diff main...cr/{number}` in a clone shows what it changes. */
  readonly branch: string;
  readonly url: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly submittedAt: string | null;
  readonly mergedAt: string | null;
  readonly closedAt: string | null;
  readonly mergeCommit: string | null;
}

/** One file the change request changes: both versions whole, and their unified diff. */
export interface ChangeRequestFileView {
  readonly path: string;
  readonly status: 'added' | 'modified' | 'removed';
  readonly artifactId?: string;
  readonly title?: string;
  readonly type?: string;
  readonly workspaceId?: string;
  readonly before: string | null;
  readonly after: string | null;
  readonly diff: string;
}

export interface ChangeRequestCommentView {
  readonly id: string;
  readonly author: { readonly id: string; readonly name: string } | null;
  readonly body: string;
  readonly createdAt: string;
}

/** Whether the reader may merge it now, and if not, why (in a sentence). */
export interface MergeAllowance {
  readonly allowed: boolean;
  readonly reason?: string;
}

/** Everything a reviewer reads: the combined diff across artifacts, the commits, the thread. */
export interface ChangeRequestDetailView extends ChangeRequestView {
  /** Where the branch parted from `main`, and its tip. */
  readonly base: string;
  readonly tip: string;
  readonly files: readonly ChangeRequestFileView[];
  readonly commits: readonly {
    readonly commit: string;
    readonly author: { readonly name: string; readonly email: string };
    readonly authoredAt: string;
    readonly subject: string;
  }[];
  readonly comments: readonly ChangeRequestCommentView[];
  readonly merge: MergeAllowance;
}

/** What a merge did. */
export interface MergedView {
  readonly changeRequest: ChangeRequestView;
  readonly kind: 'fast-forward' | 'merge';
  readonly commit: string;
  /** The artifacts `main` took in. */
  readonly artifacts: readonly { readonly id: string; readonly title: string; readonly url: string }[];
}
