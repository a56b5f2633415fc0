import type { Principal } from '../access/principal.js';
import type { ArtifactType, RequirementType } from '../artifacts/index.js';
import type {
  Author,
  DeletedArtifact,
  HistoryEntry,
  PushedCommit,
  PushedUpdate,
  QuarantineObjects,
  ReceivedPush,
} from '../store/types.js';

/** Who acts: the principal inside one organization, and the client they act through. */
export interface Actor {
  readonly principal: Principal;
  /** MCP client name, 'web' or 'cli'; goes into the commit's Client trailer. */
  readonly client?: string;
}

export type ReadMode = 'concise' | 'full';

/** A push as the Git transport hands it over: the update, where its objects wait, and how they land. */
export interface PushToReceive {
  readonly update: PushedUpdate;
  /** The quarantine's object directories (git's own environment variables). */
  readonly objects: QuarantineObjects;
  /** Resolves once every pushed object is in `objects`; rejects (or `land` does) when the pack was not taken. */
  unpacked(): Promise<void>;
  /** Called once every commit passed, before anything moves; `note` is told to the pusher. */
  accepted(commits: readonly PushedCommit[], note?: string): void;
  /** Moves the pushed objects into the repository; the store moves the branch after. */
  land(): Promise<void>;
}

export interface ArtifactView {
  readonly id: string;
  readonly type: ArtifactType;
  readonly title: string;
  readonly parentId: string | null;
  readonly url: string;
  readonly version: string;
  readonly updatedAt: string;
  readonly updatedBy: string;
  readonly truncated: boolean;
  readonly content: string;
  readonly requirementType?: RequirementType;
  /** Reads only: the readable artifacts its body links to (a deleted one marked so), and those linking to it. */
  readonly links?: readonly ArtifactLink[];
  readonly referencedBy?: readonly ArtifactRef[];
  /** Reads, creates and edits: the links of its body that name no artifact the actor can read, and why. */
  readonly unresolvedLinks?: readonly UnresolvedLink[];
}

/** A link of a body that leads nowhere the reader can go: `[[Title]]` or an artifact id, and why. */
export interface UnresolvedLink {
  readonly link: string;
  readonly reason: 'no such artifact' | 'ambiguous title';
}

/** A link from a body to an artifact; `deleted` when that artifact is deleted now. */
export interface ArtifactLink extends ArtifactRef {
  readonly deleted?: true;
}

export interface ListItemView {
  readonly id: string;
  readonly type: ArtifactType;
  readonly title: string;
  readonly url: string;
  readonly updatedAt: string;
}

export interface FolderView {
  readonly id: string;
  readonly name: string;
  readonly parentFolderId: string | null;
  readonly pageCount: number;
}

export interface SearchResultView {
  readonly id: string;
  readonly type: ArtifactType;
  readonly title: string;
  readonly preview: string;
  readonly url: string;
  readonly score: number;
}

export interface SearchResultsView {
  readonly results: SearchResultView[];
  /** How the query was taken, when not whole (its rarest words were searched). */
  readonly notice?: string;
}

export interface HighlightedResultsView {
  readonly results: HighlightedResultView[];
  readonly notice?: string;
}

export interface HighlightedResultView extends SearchResultView {
  /** Half-open [start, end) character ranges of matched words. */
  readonly titleMatches: readonly (readonly [number, number])[];
  readonly previewMatches: readonly (readonly [number, number])[];
  /** Its place in the tree, as locate() gives it (empty when it has none the caller may see). */
  readonly crumbs: readonly Crumb[];
}

export interface EditView {
  readonly id: string;
  readonly version: string;
  readonly title: string;
  readonly url: string;
  readonly added: number;
  readonly removed: number;
  /** Unified diff of the change, for the model to confirm what happened. */
  readonly diff: string;
  /** Edits: the links of the new body, resolved, and those that lead nowhere (see ArtifactView). */
  readonly links?: readonly ArtifactLink[];
  readonly unresolvedLinks?: readonly UnresolvedLink[];
}

/**
 * What a person's save wrote. The web editor goes on to show the new version, so no diff is
 * worked out for it (for a 1 MiB document: 2 MiB sent to the diff thread, 20-100 ms, unread).
 */
export type SavedView = Pick<EditView, 'id' | 'version' | 'title' | 'url' | 'added' | 'removed'>;

export interface CreateInput {
  /** Parent artifact id; for pages the optional folder id. */
  readonly parentId?: string;
  readonly title?: string;
  readonly requirementType?: RequirementType;
  /** The whole document; its first `# ` heading is the title. Without it, the type's template. */
  readonly content?: string;
  /** For an import: the file it comes from, relative to the directory imported. */
  readonly importedFrom?: string;
  /** For an import: the id chosen beforehand, so that the files imported link to one another. */
  readonly id?: string;
}

export interface EditInput {
  readonly patch: string;
  readonly baseVersion?: string;
}

/** A whole new body typed by a person, guarded by the version their editor opened. */
export interface SaveInput {
  readonly body: string;
  readonly baseVersion: string;
  /** One line for the commit message; empty means none. */
  readonly summary?: string;
}

/** What a save that collided with another change carries, so that nothing typed is lost. */
export interface EditConflict {
  readonly currentVersion: string;
  readonly currentBody: string;
  /** The text the person submitted. */
  readonly mine: string;
  /** Both texts merged, each conflicted passage between Git-style markers. */
  readonly withMarkers: string;
  /** Unified diffs from the text the editor opened to the current text, and to the submitted one. */
  readonly theirChange: string;
  readonly yourChange: string;
}

export interface TreeNode {
  readonly id: string;
  readonly type: ArtifactType;
  readonly title: string;
  readonly requirementType?: RequirementType;
  readonly children: readonly TreeNode[];
  /** True when the node has readable children that the tree leaves out (see TreeOpening). */
  readonly closed?: boolean;
}

/**
 * Which nodes of the product tree hold their children: those on the way to one artifact (and
 * its own), or the product and the levels below it, each opened whole while at most `upTo`
 * nodes are shown. Folders are opened as the artifact's way needs, or all of them.
 */
export type TreeOpening = { readonly around: string } | { readonly upTo: number };

export interface FolderTreeNode {
  readonly id: string | null;
  readonly name: string;
  readonly pages: readonly ListItemView[];
  readonly folders: readonly FolderTreeNode[];
}

export interface Crumb {
  readonly label: string;
  /** Artifact id to link to; folders have none. */
  readonly id?: string;
}

export interface Located {
  readonly type: ArtifactType;
  /** From the product (or the pages root) down to, not including, the artifact. */
  readonly crumbs: readonly Crumb[];
}

/** Filters and cursor of a history or activity page; dates are `YYYY-MM-DD` in UTC, inclusive. */
export interface HistoryQuery {
  /** Part of the author's name or email, any case. */
  readonly author?: string;
  /** Client name ("web", an assistant's name), any case. */
  readonly client?: string;
  readonly since?: string;
  readonly until?: string;
  /** The last commit of the previous page. */
  readonly cursor?: string;
  readonly limit: number;
}

export interface ChangeSummary extends HistoryEntry {
  /** The first few added or removed lines of the change, cut to a readable length. */
  readonly firstLines: readonly { readonly kind: 'add' | 'del'; readonly text: string }[];
  /** The description the author gave, when they gave one. */
  readonly summary?: string;
  /** For a revert or a restore: the change it undid, or the version it brought back. */
  readonly undoes?: { readonly kind: 'revert' | 'restore'; readonly commit: string };
  /** The artifact is deleted now: its changes are listed, but read only through the Deleted page. */
  readonly deleted?: true;
}

export interface HistoryPage {
  readonly entries: readonly ChangeSummary[];
  /** Cursor of the next (older) page, when there is one. */
  readonly next?: string;
}

export interface BlameLineView {
  /** 1-based line number in the document (the body, frontmatter left out). */
  readonly line: number;
  readonly text: string;
  readonly commit: string;
  readonly author: Author;
  readonly authoredAt: string;
  readonly client?: string;
  /** First line of the commit message, when the commit is in the artifact's history. */
  readonly subject?: string;
}

export interface BlameView {
  /** The version blamed: the artifact's current one. */
  readonly version: string;
  readonly lines: readonly BlameLineView[];
}

export interface ChangeView extends HistoryEntry, Pick<ChangeSummary, 'summary' | 'undoes'> {
  readonly diff: string;
}

/** An artifact named by id, type and title: in a delete's confirmation, a link list, a removal. */
export interface ArtifactRef {
  readonly id: string;
  readonly type: ArtifactType;
  readonly title: string;
}

/** What a delete would take: the artifact and its descendants, parents first. */
export interface DeletePreview {
  readonly artifact: ArtifactRef;
  readonly descendants: readonly ArtifactRef[];
  /** Readable artifacts outside what goes whose documents link to it or to what goes with it. */
  readonly linkedFrom: readonly ArtifactRef[];
}

/** A deleted artifact as the Deleted page lists it, and whether the actor may bring it back. */
export interface DeletedView extends DeletedArtifact {
  readonly canRestore: boolean;
}

/** A delete or a restore done: its commit, the artifact named and the descendants that went or came with it. */
export interface RemovalView {
  readonly commit: string;
  readonly artifact: ArtifactRef;
  readonly descendants: readonly ArtifactRef[];
}

/** A move done: its commit, the artifact moved and its new parent, the descendants that went with it. */
export interface MoveView extends RemovalView {
  readonly parentId: string | null;
}

/** A place an artifact or folder may move to: a parent's id (null: the top level) and how to name it. */
export interface MoveTarget {
  readonly id: string | null;
  readonly label: string;
}

/** A file to import as it was read: its path relative to the directory imported, '/'-separated. */
/** What an export takes: an artifact with everything under it, a folder with its pages, or all. */
export type ExportSelection = { readonly artifactId: string } | { readonly folderId: string } | { readonly all: true };

/** One markdown file of an export: frontmatter and body, at a path relative to the zip's top. */
export interface ExportFile {
  readonly path: string;
  readonly text: string;
}

/** A link an import left as written, and why: nobody should be surprised by a dead link. */
export interface LinkLeftAsWritten {
  readonly target: string;
  readonly why: 'asset' | 'outside the import' | 'no such title or file';
}

export interface ImportSource {
  readonly path: string;
  readonly bytes: number;
  /** Why it cannot be read (not UTF-8, frontmatter that does not parse); then nothing else is set. */
  readonly problem?: string;
  readonly fields?: Readonly<Record<string, unknown>>;
  readonly body?: string;
}

export interface ImportOptions {
  readonly dryRun: boolean;
  /** The folder whose subfolders the directories become, and where top-level pages go; else the top level. */
  readonly folderId?: string;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface ImportReport {
  /** Files imported (with a dry run: that would be), each with what it became. */
  readonly imported: readonly { path: string; type: ArtifactType; title: string; id?: string }[];
  /** Files imported by an earlier run, with what they became then (or the product a product file names). */
  readonly skipped: readonly { path: string; id: string; reason?: string }[];
  /** Files that cannot be taken, and why; nothing of them was written. */
  readonly refused: readonly { path: string; reason: string }[];
  /** Per file imported, its links left as written: to assets, to files not imported, to unknown names. */
  readonly unresolvedLinks: readonly { path: string; links: readonly LinkLeftAsWritten[] }[];
  /** Per file imported, the frontmatter keys neither used nor kept. */
  readonly droppedFields: readonly { path: string; fields: readonly string[] }[];
  /** Links made into links to the artifacts the files became. */
  readonly linksRewritten: number;
  /** Folders made for directories (with a dry run: that would be). */
  readonly folders: number;
  readonly dryRun: boolean;
}

/** A folder moved, renamed or deleted: its commit and the folder as it is now (or was). */
export interface FolderChangeView {
  readonly commit: string;
  readonly id: string;
  readonly name: string;
  readonly parentFolderId: string | null;
}

/** A moment in an artifact's history: the change at `commit` when there is one, else the time `at`. */
export interface TitleQuery {
  readonly artifactId: string;
  readonly commit: string | null;
  readonly at: string;
}

export interface TitleAsOf {
  readonly title: string;
  /** Deleted since: its title is the one it was deleted under. */
  readonly deleted: boolean;
}

/**
 * The operations of Specbase on one organization's artifacts, with access checks applied.
 * Tools, the web application and the CLI all go through this; none touch the store directly.
 */
export interface SpecService {
  search(
    actor: Actor,
    input: { query: string; artifactTypes?: readonly ArtifactType[]; limit?: number },
  ): Promise<SearchResultsView>;
  /** As search, with the matched words of each title and preview, for the web application. */
  searchHighlighted(
    actor: Actor,
    input: { query: string; artifactTypes?: readonly ArtifactType[]; limit?: number },
  ): Promise<HighlightedResultsView>;
  readProduct(actor: Actor, mode?: ReadMode): Promise<ArtifactView>;
  /** NotFoundError when the id is malformed, unknown, of another type, or unreadable for the actor. */
  read(actor: Actor, type: ArtifactType, id: string, mode?: ReadMode): Promise<ArtifactView>;
  /** As read, for an artifact of any type (NotFoundError likewise). */
  readAny(actor: Actor, id: string, mode?: ReadMode): Promise<ArtifactView>;
  /** Every artifact the actor can read, type by type, each type in creation order. */
  listReadable(actor: Actor): Promise<ListItemView[]>;
  listChildren(actor: Actor, childType: ArtifactType, parentId: string): Promise<ListItemView[]>;
  listPages(actor: Actor, folderId?: string): Promise<ListItemView[]>;
  listFolders(actor: Actor, parentFolderId?: string): Promise<FolderView[]>;
  create(actor: Actor, type: ArtifactType, input: CreateInput): Promise<ArtifactView>;
  createFolder(
    actor: Actor,
    input: { name: string; parentFolderId?: string; workspaceId?: string },
  ): Promise<FolderView>;
  edit(actor: Actor, type: ArtifactType, id: string, input: EditInput): Promise<EditView>;
  /** Saves a whole body typed in the web editor; ConflictError carrying an EditConflict when both changed one passage. */
  save(actor: Actor, type: ArtifactType, id: string, input: SaveInput): Promise<SavedView>;

  /** The readable tree, opened as `opening` says. */
  tree(actor: Actor, opening: TreeOpening): Promise<{ product: TreeNode; pages: FolderTreeNode }>;
  /** Where an artifact sits in the tree the actor can read; undefined when it is not readable there. */
  locate(actor: Actor, id: string): Promise<Located | undefined>;
  history(actor: Actor, id: string): Promise<HistoryEntry[]>;
  change(actor: Actor, id: string, commit: string): Promise<ChangeView>;
  compare(actor: Actor, id: string, fromCommit: string, toCommit: string): Promise<string>;
  bodyAt(actor: Actor, id: string, commit: string): Promise<string>;
  revert(actor: Actor, id: string, commit: string): Promise<EditView>;
  restore(actor: Actor, id: string, commit: string): Promise<EditView>;
  historyPage(actor: Actor, id: string, query: HistoryQuery): Promise<HistoryPage>;
  /** `earlier`: blames the caller kept, by version; the previous version's spares walking the history (see blameArtifact). */
  blame(actor: Actor, id: string, earlier?: (version: string) => BlameView | undefined): Promise<BlameView>;
  activityPage(actor: Actor, query: HistoryQuery): Promise<HistoryPage>;
  canWrite(actor: Actor, id: string): Promise<boolean>;
  /** A `git push` to `main`: judged with the actor's permissions, landed by git, announced (see receivePush). */
  receivePush(actor: Actor, push: PushToReceive): Promise<ReceivedPush>;

  /** What deleting `id` would take with it; only for someone who may delete it. */
  deletePreview(actor: Actor, id: string): Promise<DeletePreview>;
  /** One commit `Delete <type>: <title>`; an artifact with children only with `recursive`; never the product. */
  delete(actor: Actor, id: string, options: { recursive: boolean }): Promise<RemovalView>;
  /** One commit `Restore <type>: <title>` bringing back the artifact and the descendants deleted with it. */
  restoreDeleted(actor: Actor, id: string): Promise<RemovalView & { url: string }>;
  /** Deleted artifacts of readable workspaces, newest first. */
  listDeleted(actor: Actor): Promise<DeletedView[]>;
  /** Each artifact's title as of a moment (the audit log's rows), undefined where the actor may not read it. */
  titlesAsOf(actor: Actor, queries: readonly TitleQuery[]): Promise<(TitleAsOf | undefined)[]>;
  /** One commit `Move <type>: <title>`: another parent of the allowed type (null: a page to the root). */
  move(actor: Actor, id: string, to: string | null): Promise<MoveView>;
  /** Parents an artifact may move under, for the web's Move form. */
  moveTargets(actor: Actor, id: string): Promise<MoveTarget[]>;
  moveFolder(actor: Actor, id: string, to: string | null): Promise<FolderChangeView>;
  folderMoveTargets(actor: Actor, id: string): Promise<MoveTarget[]>;
  renameFolder(actor: Actor, id: string, name: string): Promise<FolderChangeView>;
  /** Only an empty folder. */
  deleteFolder(actor: Actor, id: string): Promise<FolderChangeView>;
  /** Markdown files, one commit each (see import.ts). */
  importFiles(actor: Actor, sources: readonly ImportSource[], options: ImportOptions): Promise<ImportReport>;
  /** The markdown files of an artifact's subtree, a folder or the organization, one at a time. */
  exportFiles(actor: Actor, selection: ExportSelection): AsyncGenerator<ExportFile>;
}

export type { Author };
