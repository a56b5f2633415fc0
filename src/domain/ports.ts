import type { Limits } from '../config/index.js';
import type { DiffCache } from './diff-cache.js';
import type { ArtifactChange, ChangeRequestEvent, ControlPlane } from '../control/types.js';
import type { SearchAnswer, SearchQuery } from '../search/types.js';
import type {
  BranchChanges,
  MergeOutcome,
  ArtifactMeta,
  Author,
  ArtifactRecord,
  BodyChange,
  CatalogView,
  ChangeContext,
  CommitResult,
  DeletedArtifact,
  FolderRecord,
  HistoryEntry,
  NewArtifact,
  NewFolder,
  PushToLand,
  ReceivedPush,
} from '../store/types.js';

/** What the domain needs of the artifact store (GitStore satisfies it). */
export interface ArtifactStore {
  /** Indexed lookups (by id, parent, type and workspace) into the catalog as of `main` now. */
  view(orgId: string): Promise<CatalogView>;
  /** The catalog as held now, commits of other processes caught up with in the background. */
  current(orgId: string): Promise<CatalogView>;
  meta(orgId: string, id: string): Promise<ArtifactMeta | undefined>;
  read(orgId: string, id: string): Promise<ArtifactRecord>;
  bodyAt(orgId: string, id: string, commit: string): Promise<string | undefined>;
  children(orgId: string, parentId: string | null, type?: ArtifactMeta['type']): Promise<ArtifactMeta[]>;
  create(orgId: string, input: NewArtifact, ctx: ChangeContext): Promise<CommitResult>;
  update(orgId: string, id: string, change: BodyChange, ctx: ChangeContext): Promise<CommitResult>;
  delete(orgId: string, id: string, options: { recursive: boolean }, ctx: ChangeContext): Promise<CommitResult[]>;
  restoreDeleted(
    orgId: string,
    id: string,
    options: { rootWorkspaceId: string },
    ctx: ChangeContext,
  ): Promise<CommitResult[]>;
  deleted(orgId: string): Promise<DeletedArtifact[]>;
  move(
    orgId: string,
    id: string,
    to: { parentId: string | null; workspaceId: string },
    ctx: ChangeContext,
  ): Promise<CommitResult[]>;
  moveFolder(
    orgId: string,
    id: string,
    to: { parentId: string | null; workspaceId: string },
    ctx: ChangeContext,
  ): Promise<string>;
  renameFolder(orgId: string, id: string, name: string, ctx: ChangeContext): Promise<string>;
  deleteFolder(orgId: string, id: string, ctx: ChangeContext): Promise<string>;
  /** Files imported so far -> the artifact each became. */
  importedPaths(orgId: string): Promise<Map<string, string>>;
  /**
   * Who links to whom, as of `main` now: targets are artifact ids and wiki keys (a `[[Title]]`
   * link), and `titled` names the artifacts a wiki key may mean.
   */
  links(orgId: string): Promise<{
    linksFrom(id: string): readonly string[];
    linksTo(target: string): readonly string[];
    titled(title: string): readonly string[];
  }>;
  history(orgId: string, id: string): Promise<HistoryEntry[]>;
  activity(orgId: string, opts: { limit: number; workspaceIds: ReadonlySet<string> }): Promise<HistoryEntry[]>;
  createFolder(orgId: string, input: NewFolder, ctx: ChangeContext): Promise<FolderRecord>;
  folders(orgId: string): Promise<FolderRecord[]>;
}

/** Pushes to `main` through native git (GitStore satisfies it). */
export interface PushStore {
  /** A push the store judges, then lands (see GitStore.receivePush). */
  receivePush(key: string, push: PushToLand): Promise<ReceivedPush>;
}

/** A change request's branch in the store (GitStore satisfies it); the branch itself is read through `ArtifactStore` by its key. */
export interface BranchStore {
  /** The key that names the branch to every ArtifactStore method in place of the organization. */
  changeRequestKey(orgId: string, number: number): string;
  forkChangeRequest(orgId: string, number: number): Promise<string>;
  /** `main`'s commit now, read from the ref. */
  mainCommit(orgId: string): Promise<string | null>;
  /** Makes change request `number`'s branch at `tip`, commits a push landed without moving a branch. */
  adoptPushedBranch(orgId: string, number: number, tip: string): Promise<void>;
  changeRequestTip(orgId: string, number: number): Promise<string | null>;
  /** Its changes since it parted from `main`, or since `from` (a merged one's base: main holds its tip). */
  changeRequestChanges(orgId: string, number: number, from?: string): Promise<BranchChanges>;
  mergeChangeRequest(
    orgId: string,
    number: number,
    merge: { message: string; resolutions?: ReadonlyMap<string, string>; resolvedOn?: string },
    ctx: ChangeContext,
  ): Promise<MergeOutcome>;
}

/** `git blame` of one file at one commit: who last touched each line. */
export interface BlameSource {
  blame(
    orgId: string,
    path: string,
    commit: string,
  ): Promise<readonly { line: number; text: string; commit: string; author: Author; authoredAt: string }[]>;
}

/** What the domain needs of the search index. */
export interface ArtifactSearch {
  forOrg(orgId: string): Promise<{
    search(q: SearchQuery): Promise<SearchAnswer>;
    matchRanges(query: string, text: string): [number, number][];
  }>;
}

export interface DomainDeps {
  readonly store: ArtifactStore;
  readonly search: ArtifactSearch;
  readonly blame: BlameSource;
  readonly control: Pick<ControlPlane, 'workspaces' | 'changeRequests' | 'users'>;
  /** Change requests' branches; without it, change requests are not offered. */
  readonly branches?: BranchStore;
  readonly pushes: PushStore;
  /** Public base URL, for the `url` of every artifact. */
  readonly baseUrl: string;
  readonly limits: Limits;
  /**
   * Where commits are announced (the webhooks' outbox); `committed` resolves once the change is
   * written there and never rejects: the commit it tells of is already made.
   */
  readonly changes?: { committed(change: ArtifactChange): Promise<void> };
  /** Where change requests' own events are announced (opened, updated, merged, closed); never rejects. */
  readonly changeRequestEvents?: { announced(event: ChangeRequestEvent): Promise<void> };
}

/** The ports, plus what the domain keeps for itself between calls. */
export interface DomainContext extends DomainDeps {
  readonly diffs: DiffCache;
}
