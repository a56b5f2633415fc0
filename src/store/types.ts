import type { ArtifactType, RequirementType } from '../artifacts/index.js';

export interface Author {
  readonly name: string;
  readonly email: string;
}

/** Who makes a change, and through which client; becomes the commit author and trailers. */
export interface ChangeContext {
  readonly author: Author;
  /** MCP client name (or "web", "cli"), written as the `Client` trailer. */
  readonly client?: string;
}

/** What the catalog knows of an artifact without reading its body. */
export interface ArtifactMeta {
  readonly id: string;
  readonly type: ArtifactType;
  /** Parent artifact id; for pages the folder id, or null at root level. */
  readonly parentId: string | null;
  readonly workspaceId: string;
  readonly title: string;
  readonly requirementType?: RequirementType;
  /**
   * Path of the markdown file inside the repository; fixed at creation, moved only by the one
   * layout migration (see migrate-layout.ts).
   */
  readonly path: string;
  /** Where the file was before it moved, newest first: versions older than the move are there. */
  readonly formerPaths?: readonly string[];
  readonly createdAt: string;
  /** Id of the last commit that changed the artifact. */
  readonly version: string;
  readonly updatedAt: string;
  readonly updatedBy: Author;
  /** The artifact addresses its body links to, `<org id>/<artifact id>` (see layout/links.ts); absent when none. */
  readonly linkTargets?: readonly string[];
}

export interface ArtifactRecord extends ArtifactMeta {
  /** The markdown body: what assistants read and patch. Frontmatter is never part of it. */
  readonly body: string;
}

export interface FolderRecord {
  readonly id: string;
  readonly name: string;
  readonly parentId: string | null;
  readonly workspaceId: string;
  readonly path: string;
  readonly createdAt: string;
}

/**
 * What a commit did to an artifact. `restore` is both "restore this version" of a live artifact
 * and the return of a deleted one; `move` gave it another parent (its file path stays).
 */
export type ChangeVerb = 'create' | 'edit' | 'revert' | 'restore' | 'delete' | 'move';

export interface CommitResult {
  readonly commit: string;
  readonly artifact: ArtifactRecord;
  /** Lines added and removed in the body by this commit. */
  readonly added: number;
  readonly removed: number;
  /** The commit removed the artifact's file: `artifact` is what it was (its body empty). */
  readonly deleted?: true;
}

export interface HistoryEntry {
  readonly commit: string;
  readonly parent: string | null;
  readonly verb: ChangeVerb;
  readonly artifactId: string;
  readonly artifactType: ArtifactType;
  readonly title: string;
  readonly message: string;
  readonly author: Author;
  readonly authoredAt: string;
  readonly client?: string;
  readonly added: number;
  readonly removed: number;
}

export interface NewArtifact {
  readonly id?: string;
  readonly type: ArtifactType;
  readonly parentId: string | null;
  readonly workspaceId: string;
  readonly title: string;
  readonly body: string;
  readonly requirementType?: RequirementType;
  /** For an import: the file it came from, relative to the directory imported (the `Specbase-Import` trailer). */
  readonly importedFrom?: string;
}

export interface NewFolder {
  readonly id?: string;
  readonly name: string;
  readonly parentId: string | null;
  readonly workspaceId: string;
}

/**
 * The new body, or how to compute it from the artifact as it is at `main`: a function runs
 * inside the organization's write section, so concurrent writers never refuse each other. It
 * may answer later (a large patch is applied in a worker thread).
 */
export type NextBody = string | ((current: ArtifactRecord) => string | Promise<string>);

export interface BodyChange {
  readonly body: NextBody;
  readonly verb: 'edit' | 'revert' | 'restore';
  /** When set, the write fails with ConflictError unless the artifact's version is still this. */
  readonly expectedVersion?: string;
  /** For revert/restore: the commit being reverted or restored, named in the message. */
  readonly sourceCommit?: string;
  /** A person's one-line description of the change, written into the commit message body. */
  readonly summary?: string;
}

export type CommitListener = (orgId: string, result: CommitResult) => void;

/** Where the store says what it did on its own (a saved state found wrong and rebuilt). */
export type StoreLog = (level: 'warn' | 'error', message: string, data?: Record<string, unknown>) => void;

/** What readers may ask of the state without walking all of it. */
export interface CatalogView {
  meta(id: string): ArtifactMeta | undefined;
  folder(id: string): FolderRecord | undefined;
  /** Artifacts whose parent is `parentId` (null: the product and root-level pages), creation order. */
  children(parentId: string | null, type?: ArtifactType): ArtifactMeta[];
  /** Folders directly in `parentId` (null: the root), creation order. */
  subfolders(parentId: string | null): FolderRecord[];
  /** Artifacts of one type in the given workspaces, creation order. */
  ofType(type: ArtifactType, workspaceIds: ReadonlySet<string>): ArtifactMeta[];
  /** The latest changes to artifacts of the given workspaces, newest first. */
  recentChanges(workspaceIds: ReadonlySet<string>, limit: number): HistoryEntry[];
}

/** What the move to the sharded layout did: its one commit and how many files it moved. */
export interface LayoutMigration {
  readonly commit: string;
  readonly moved: number;
}

/** What GitStore.documents() handed over: every artifact id at `main`, and the last artifact change. */
export interface StoreDocuments {
  readonly ids: readonly string[];
  readonly version: string | null;
}

/** An artifact deleted (and not restored since), as the Deleted page lists it. */
export interface DeletedArtifact {
  readonly id: string;
  readonly type: ArtifactType;
  readonly title: string;
  readonly workspaceId: string;
  /** The commit that deleted it. */
  readonly commit: string;
  readonly deletedAt: string;
  readonly deletedBy: Author;
  readonly client?: string;
  /** Deleted by name (false: as a descendant of one, and it comes back with that one). */
  readonly named: boolean;
  /** Descendants deleted with it (they come back with it). */
  readonly descendants: number;
}

/** One file a change request changed, as it was where it parted from `main` and as it is on the branch. */
export interface BranchFile {
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
  /** From the file's frontmatter (after, else before); absent for a file that is not an artifact's. */
  readonly artifactId?: string;
  readonly title?: string;
  readonly type?: string;
  readonly workspaceId?: string;
}

/** A commit on the branch and not on `main`. */
export interface BranchCommit {
  readonly commit: string;
  readonly author: { readonly name: string; readonly email: string };
  readonly authoredAt: string;
  readonly subject: string;
}

export interface BranchChanges {
  /** Where the branch parted from `main` (their merge base), the branch's tip, and `main` now. */
  readonly base: string;
  readonly tip: string;
  readonly main: string;
  readonly files: readonly BranchFile[];
  /** Newest first. */
  readonly commits: readonly BranchCommit[];
}

/** What merging a change request did. */
export interface MergeOutcome {
  readonly kind: 'fast-forward' | 'merge';
  /** `main` after the merge. */
  readonly commit: string;
  /** The merged branch's tip. */
  readonly tip: string;
  /** Each artifact change `main` took in, as listeners hear of them. */
  readonly results: CommitResult[];
}

/**
 * Where a push's objects are while its hook runs: git hands the hook `GIT_OBJECT_DIRECTORY` (the
 * quarantine) and `GIT_ALTERNATE_OBJECT_DIRECTORIES` (the repository's own objects), so that a
 * git started with them sees the pushed objects before any of them is in the repository. A push
 * that brings no objects (a deletion) has no quarantine.
 */
export type QuarantineObjects = Readonly<
  Partial<Record<'GIT_OBJECT_DIRECTORY' | 'GIT_ALTERNATE_OBJECT_DIRECTORIES', string>>
>;

/**
 * A push for the store to land on a branch (`main`, or a change request's): judged first, then
 * its objects brought in from quarantine (`land`), then the branch moved by the store itself,
 * under its lock, as any write moves it.
 */
export interface PushToLand {
  readonly update: PushedUpdate;
  /** Where the pushed objects wait until `land`. */
  readonly objects: QuarantineObjects;
  /**
   * Resolves once every pushed object is in `objects`; rejects when the pack was not taken
   * (known later at times: `land` then rejects). Awaited under the branch's lock, after
   * catching up: both overlap git's unpacking.
   */
  unpacked(): Promise<void>;
  readonly rules: PushRules;
  /** Called once every commit passed, before anything moves. */
  accepted(commits: readonly PushedCommit[]): void;
  /** Moves the pushed objects into the repository (the branch moves after). */
  land(): Promise<void>;
  /** Lands the objects but leaves the branch where it is: a new change request's branch is made of them after. */
  readonly keepRef?: boolean;
}

/** What a push asks of a branch: move from `old` to `new` (null: delete it). */
export interface PushedUpdate {
  readonly old: string | null;
  readonly new: string | null;
}

/** What the pusher may do: the organization's workspaces, and which of them they may change. */
export interface PushRules {
  readonly workspaceIds: ReadonlySet<string>;
  mayWrite(workspaceId: string): boolean;
}

/** A commit a push brought, as its author made it. */
export interface PushedCommit {
  readonly commit: string;
  readonly author: Author;
  readonly subject: string;
}

/** One artifact a pushed commit changed, as the catalog recorded it (the verb inferred for a commit made by hand). */
export interface PushedChange {
  readonly result: CommitResult;
  readonly verb: ChangeVerb;
  readonly author: Author;
}

/** A push the store judged: its commits, whether `main` is now at the last of them, and what they changed. */
export interface ReceivedPush {
  readonly commits: readonly PushedCommit[];
  readonly landed: boolean;
  readonly changes: readonly PushedChange[];
}
