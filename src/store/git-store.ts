import path from 'node:path';
import type { ArtifactType } from '../artifacts/index.js';
import { boundedMemo } from '../bounded-memo.js';
import { DEFAULT_LIMITS } from '../config/index.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { isObjectId, isUuid } from '../ids.js';
import { launcher } from '../launcher/index.js';
import { sqliteDriver } from '../sqlite/index.js';
import { deletedArtifacts, importedPaths } from './catalog/index.js';
import {
  changeRequestRef,
  FSYNC,
  prepareLooseBlobs,
  readMain,
  readRef,
  regularFileChanges,
  type Durability,
} from './git/index.js';
import {
  branchChanges,
  changeRequestKey,
  forkBranch,
  isMainKey,
  mergeBranch,
  parseStoreKey,
  type BranchMerge,
} from './branches/index.js';
import { checkPush } from './receive/index.js';
import {
  createArtifact,
  createFolder,
  deleteArtifact,
  deleteFolder,
  moveArtifact,
  moveFolder,
  renameFolder,
  type Destination,
  restoreDeleted,
  updateArtifact,
  validateBodyChange,
  validateNewArtifact,
  validateNewFolder,
} from './write/index.js';
import {
  BodyCache,
  LinkIndexes,
  OrgKeeper,
  readBodyAt,
  readDocuments,
  readMany,
  readRecord,
  VersionReaders,
  type OrgHandle,
  type OrgLinks,
  type RepoPlace,
  type WriteEnv,
} from './org/index.js';
import type {
  BranchChanges,
  MergeOutcome,
  ArtifactMeta,
  ArtifactRecord,
  Author,
  BodyChange,
  CatalogView,
  ChangeContext,
  CommitListener,
  CommitResult,
  DeletedArtifact,
  FolderRecord,
  HistoryEntry,
  LayoutMigration,
  NewArtifact,
  NewFolder,
  PushedChange,
  PushToLand,
  ReceivedPush,
  StoreDocuments,
  StoreLog,
} from './types.js';

export interface GitStoreOptions {
  readonly dataDir: string;
  /**
   * Where this process keeps its caches, a directory per organization; `<dataDir>/cache` by
   * default. Processes that share `dataDir` over a network file system each need their own.
   */
  readonly cacheDir?: string;
  /** The service's identity as committer; authors are always the signed-in users. */
  readonly committer?: Author;
  readonly maxDocumentBytes?: number;
  /** How commits reach the disk; FSYNC (the default) acknowledges a write only once it survives a power loss. */
  readonly durability?: Durability;
  /** Where the store says what it did on its own (a saved state found wrong and rebuilt). */
  readonly log?: StoreLog;
  /**
   * Organizations held open at most: past it the least recently used one nobody uses is saved
   * and closed (see org-handles.ts). 0 or absent: no limit.
   */
  readonly maxOpenOrgs?: number;
  /** An organization nobody used for this long is closed. 0 or absent: never. */
  readonly orgIdleMs?: number;
}

export interface NewOrganization {
  readonly productId?: string;
  readonly productTitle: string;
  readonly productBody: string;
  readonly workspaceId: string;
}

/** Organizations' paths remembered at most. */
const MAX_KNOWN_GITDIRS = 10_000;

/**
 * Artifacts as markdown files in one bare Git repository per organization (`main` only).
 * Writes are serialized per organization in this process and, through `main.lock`, across
 * processes; reads are served from an index that follows `main`, whoever moved it.
 */
export class GitStore {
  private readonly dataDir: string;
  private readonly cacheRoot: string;
  private readonly env: WriteEnv;
  private readonly durability: Durability;
  private readonly orgs: OrgKeeper;
  private readonly versions = new VersionReaders();
  private readonly linkIndexes = new LinkIndexes(async (orgId) => (await this.fresh(orgId)).state.metas.values());
  /** Asked several times by every call: kept per key, not joined and normalized again each time. */
  private readonly places = boundedMemo(MAX_KNOWN_GITDIRS, (key: string): RepoPlace => {
    const parsed = parseStoreKey(key);
    if (!parsed) throw new NotFoundError('organization');
    return { gitdir: path.join(this.dataDir, 'orgs', `${parsed.orgId}.git`), ref: parsed.ref };
  });

  constructor(options: GitStoreOptions) {
    this.dataDir = path.resolve(options.dataDir);
    this.cacheRoot = path.resolve(options.cacheDir ?? path.join(this.dataDir, 'cache'));
    this.env = {
      committer: options.committer ?? { name: 'Specbase', email: 'specbase@localhost' },
      maxDocumentBytes: options.maxDocumentBytes ?? DEFAULT_LIMITS.maxDocumentBytes,
      bodies: new BodyCache(),
    };
    this.durability = options.durability ?? FSYNC;
    this.orgs = new OrgKeeper({
      place: (key) => this.places(key),
      cacheDir: (key) => this.stateDir(key),
      durability: this.durability,
      env: this.env,
      ...(options.log ? { log: options.log } : {}),
      limits: { maxOpen: options.maxOpenOrgs ?? 0, idleMs: options.orgIdleMs ?? 0 },
    });
    // A closed organization's reader of older versions (a git process) and its link index go with it.
    this.orgs.onClose((key) => {
      if (isMainKey(key)) this.versions.stop(this.gitdir(key));
      this.linkIndexes.forget(key);
    });
    this.orgs.onCommit((orgId, result) => this.linkIndexes.follow(orgId, result));
    // Git is started from the launcher; it is started now, while this process is small.
    launcher.prepare();
    prepareLooseBlobs();
    // Loaded now, not in the first save of a saved state, where loading it held the loop 7-15 ms.
    void sqliteDriver().catch(() => undefined);
  }

  gitdir(orgId: string): string {
    return this.places(orgId).gitdir;
  }

  /** The organization's directory among this process's caches: its saved state, and the service's other caches of it. */
  cacheDir(orgId: string): string {
    if (!isUuid(orgId)) throw new NotFoundError('organization');
    return path.join(this.cacheRoot, 'orgs', orgId.toLowerCase());
  }

  /** Where the state of a key is saved: a change request's beside its organization's. */
  private stateDir(key: string): string {
    const parsed = parseStoreKey(key);
    if (!parsed) throw new NotFoundError('organization');
    const dir = this.cacheDir(parsed.orgId);
    return parsed.changeRequest === undefined ? dir : path.join(dir, 'cr', String(parsed.changeRequest));
  }

  async exists(orgId: string): Promise<boolean> {
    if (!parseStoreKey(orgId)) return false;
    const place = this.places(orgId);
    return readRef(place.gitdir, place.ref) !== null;
  }

  async initOrganization(orgId: string, input: NewOrganization, ctx: ChangeContext): Promise<CommitResult> {
    const product: NewArtifact = {
      ...(input.productId ? { id: input.productId } : {}),
      type: 'product',
      parentId: null,
      workspaceId: input.workspaceId,
      title: input.productTitle,
      body: input.productBody,
    };
    validateNewArtifact(product, this.env);
    if (await this.exists(orgId)) throw new ConflictError('the organization already has a repository');
    return this.orgs.create(orgId, async (handle) => {
      if (handle.state.head) throw new ConflictError('the organization already has a repository');
      return createArtifact(handle, product, ctx, this.env);
    });
  }

  /** The commit `main` points at now, read from the ref alone (the catalog may still be loading). */
  async mainCommit(orgId: string): Promise<string | null> {
    return readMain(this.gitdir(orgId));
  }

  async head(orgId: string): Promise<string> {
    return (await this.fresh(orgId)).state.head as string;
  }

  async catalog(orgId: string): Promise<readonly ArtifactMeta[]> {
    return (await this.fresh(orgId)).state.catalog();
  }

  /** Answered from Git directly while the organization's catalog is being built (see read-direct.ts). */
  async meta(orgId: string, id: string): Promise<ArtifactMeta | undefined> {
    if (!isUuid(id)) return undefined;
    const direct = await this.orgs.readDirect(orgId, id.toLowerCase());
    if (direct) return direct.meta;
    return (await this.fresh(orgId)).state.metas.get(id.toLowerCase());
  }

  /** As meta(): answered from Git directly while the catalog is being built. */
  async read(orgId: string, id: string): Promise<ArtifactRecord> {
    if (!isUuid(id)) throw new NotFoundError('artifact');
    const direct = await this.orgs.readDirect(orgId, id.toLowerCase());
    if (direct) return { ...direct.meta, body: direct.body };
    return readRecord(await this.fresh(orgId), id.toLowerCase(), this.env.bodies);
  }

  /** See read-many.ts: all artifacts (or those of `ids`) with bodies, read from git in bulk. */
  async readMany(orgId: string, ids?: readonly string[]): Promise<ArtifactRecord[]> {
    return readMany(
      await this.fresh(orgId),
      ids?.map((id) => id.toLowerCase()),
    );
  }

  /**
   * Every artifact at `main` with its body, handed to `take` in batches as they are read (what
   * building a search index needs). While the catalog is built from the root, the batches come
   * from the build's own reads of Git; what it parsed before this call, or what changed since,
   * is read once the catalog is ready. Resolves with the ids of all artifacts and the commit of
   * the last artifact change the records reflect.
   */
  async documents(orgId: string, take: (records: readonly ArtifactRecord[]) => Promise<void>): Promise<StoreDocuments> {
    // Started first, so that the build (if it is one) feeds this call from its first record.
    this.orgs.handle(orgId).catch(() => undefined);
    return readDocuments(this.orgs.takeFeed(orgId), () => this.fresh(orgId), take);
  }

  async bodyAt(orgId: string, id: string, commit: string): Promise<string | undefined> {
    if (!isUuid(id)) throw new NotFoundError('artifact');
    const handle = await this.fresh(orgId);
    const meta = handle.state.metas.get(id.toLowerCase());
    if (!meta) throw new NotFoundError('artifact');
    if (!isObjectId(commit)) return undefined;
    return readBodyAt(this.versions.of(handle.repo.gitdir), meta, commit);
  }

  async children(orgId: string, parentId: string | null, type?: ArtifactType): Promise<ArtifactMeta[]> {
    return (await this.fresh(orgId)).state.children(parentId?.toLowerCase() ?? null, type);
  }

  /**
   * The catalog as this process holds it, not waiting for commits of other processes: those are
   * caught up with in the background (see OrgKeeper.current). For answers that may lag a moment
   * but must never wait: search.
   */
  async current(orgId: string): Promise<CatalogView> {
    return (await this.orgs.current(orgId)).state;
  }

  /** Indexed lookups into the catalog as of `main` now, for reads that need several. */
  async view(orgId: string): Promise<CatalogView> {
    return (await this.fresh(orgId)).state;
  }

  async create(orgId: string, input: NewArtifact, ctx: ChangeContext): Promise<CommitResult> {
    validateNewArtifact(input, this.env);
    return this.write(orgId, (handle) => createArtifact(handle, input, ctx, this.env));
  }

  async update(orgId: string, id: string, change: BodyChange, ctx: ChangeContext): Promise<CommitResult> {
    if (!isUuid(id)) throw new NotFoundError('artifact');
    validateBodyChange(change, this.env);
    return this.write(orgId, (handle) => updateArtifact(handle, id.toLowerCase(), change, ctx, this.env));
  }

  /** Removes the artifact (with `recursive`, its descendants too) in one commit; a result per artifact, the named one first. */
  async delete(
    orgId: string,
    id: string,
    options: { recursive: boolean },
    ctx: ChangeContext,
  ): Promise<CommitResult[]> {
    if (!isUuid(id)) throw new NotFoundError('artifact');
    return this.orgs.writeMany(orgId, (handle) => deleteArtifact(handle, id.toLowerCase(), options, ctx, this.env));
  }

  /** Brings a deleted artifact back, with the descendants deleted with it, in one commit (a page whose folder went, to the top level in `rootWorkspaceId`). */
  async restoreDeleted(
    orgId: string,
    id: string,
    options: { rootWorkspaceId: string },
    ctx: ChangeContext,
  ): Promise<CommitResult[]> {
    if (!isUuid(id)) throw new NotFoundError('artifact');
    return this.orgs.writeMany(orgId, (handle) => restoreDeleted(handle, id.toLowerCase(), options, ctx, this.env));
  }

  /** Artifacts deleted and not restored since, newest first. */
  async deleted(orgId: string): Promise<DeletedArtifact[]> {
    return deletedArtifacts((await this.fresh(orgId)).state);
  }

  /** Gives the artifact another parent in one commit; a result per artifact of the subtree, the moved one first. */
  async move(orgId: string, id: string, to: Destination, ctx: ChangeContext): Promise<CommitResult[]> {
    if (!isUuid(id)) throw new NotFoundError('artifact');
    const destination = { parentId: to.parentId?.toLowerCase() ?? null, workspaceId: to.workspaceId };
    return this.orgs.writeMany(orgId, (handle) => moveArtifact(handle, id.toLowerCase(), destination, ctx, this.env));
  }

  /** Puts a folder into another (null: the root) in one commit, its pages taking the new workspace; that commit. */
  async moveFolder(orgId: string, id: string, to: Destination, ctx: ChangeContext): Promise<string> {
    if (!isUuid(id)) throw new NotFoundError('folder');
    const destination = { parentId: to.parentId?.toLowerCase() ?? null, workspaceId: to.workspaceId };
    let commit = '';
    await this.orgs.writeMany(orgId, async (handle) => {
      const moved = await moveFolder(handle, id.toLowerCase(), destination, ctx, this.env);
      commit = moved.commit;
      return moved.pages;
    });
    return commit;
  }

  /** Renames a folder in one commit; that commit. */
  async renameFolder(orgId: string, id: string, name: string, ctx: ChangeContext): Promise<string> {
    if (!isUuid(id)) throw new NotFoundError('folder');
    const { name: checked } = validateNewFolder({ id, name, parentId: null, workspaceId: 'unchanged' });
    return this.folderWrite(orgId, (handle) => renameFolder(handle, id.toLowerCase(), checked, ctx, this.env));
  }

  /** Deletes an empty folder in one commit; that commit. */
  async deleteFolder(orgId: string, id: string, ctx: ChangeContext): Promise<string> {
    if (!isUuid(id)) throw new NotFoundError('folder');
    return this.folderWrite(orgId, (handle) => deleteFolder(handle, id.toLowerCase(), ctx, this.env));
  }

  /**
   * A `git push` to a branch (`key`: `main`, or a change request's): its commits, still in
   * quarantine (`objects`), are judged against the branch while every other write waits (see
   * checkPush); `accepted` hears the verdict, `land` brings the objects in, and the store moves
   * the branch (unless `keepRef`) and follows it as it follows any commit (index, links,
   * listeners). Throws PushRefusedError, with nothing moved, when a commit breaks a rule.
   */
  async receivePush(key: string, push: PushToLand): Promise<ReceivedPush> {
    const { judged, results, handle } = await this.orgs.receive(
      key,
      async (handle) => {
        await push.unpacked();
        return checkPush({
          repo: handle.repo,
          branch: handle.repo.ref.replace(/^refs\/heads\//, ''),
          state: handle.state,
          update: push.update,
          objects: push.objects,
          rules: push.rules,
          env: this.env,
        });
      },
      ({ steps, parsed }) => {
        push.accepted(steps.map((step) => ({ commit: step.oid, author: step.author, subject: step.subject })));
        const objects = push.land();
        if (push.keepRef || !push.update.new) return { objects };
        const history = steps.map(({ oid, commit, changes }) => ({
          oid,
          commit,
          changes: regularFileChanges(changes),
        }));
        return { objects, move: { tip: push.update.new, history, parsed } };
      },
    );
    const changes = results.flatMap((result): PushedChange[] => {
      const entry = handle.state.byArtifact.get(result.artifact.id)?.findLast((e) => e.commit === result.commit);
      return entry ? [{ result, verb: entry.verb, author: entry.author }] : [];
    });
    const commits = judged.steps.map((step) => ({ commit: step.oid, author: step.author, subject: step.subject }));
    return { commits, landed: handle.state.head === push.update.new, changes };
  }

  /** Files imported so far (their `Specbase-Import` trailer) -> the artifact each became. */
  async importedPaths(orgId: string): Promise<Map<string, string>> {
    return importedPaths((await this.fresh(orgId)).state);
  }

  async history(orgId: string, id: string): Promise<HistoryEntry[]> {
    if (!isUuid(id)) throw new NotFoundError('artifact');
    const state = (await this.fresh(orgId)).state;
    const meta = state.metas.get(id.toLowerCase());
    if (!meta) throw new NotFoundError('artifact');
    return [...(state.byArtifact.get(meta.id) ?? [])].reverse();
  }

  /** The commit of the latest artifact change on `main`, null when there is none. */
  async lastChange(orgId: string): Promise<string | null> {
    return (await this.fresh(orgId)).state.entries.at(-1)?.commit ?? null;
  }

  /** See OrgState.changedSince. */
  async changedSince(orgId: string, since: string): Promise<string[] | undefined> {
    return (await this.fresh(orgId)).state.changedSince(since);
  }

  /** The latest changes to artifacts of the given workspaces, newest first. */
  async activity(orgId: string, opts: { limit: number; workspaceIds: ReadonlySet<string> }): Promise<HistoryEntry[]> {
    return (await this.fresh(orgId)).state.recentChanges(opts.workspaceIds, Math.max(0, Math.floor(opts.limit)));
  }

  async createFolder(orgId: string, input: NewFolder, ctx: ChangeContext): Promise<FolderRecord> {
    validateNewFolder(input);
    let folder: FolderRecord | undefined;
    await this.write(orgId, async (handle) => {
      folder = await createFolder(handle, input, ctx, this.env);
      return undefined;
    });
    return folder as FolderRecord;
  }

  async folders(orgId: string): Promise<FolderRecord[]> {
    return [...(await this.fresh(orgId)).state.folders.values()];
  }

  /** Who links to whom in the organization, as of `main` now (built on first use, then kept up to date by every commit seen). */
  async links(orgId: string): Promise<OrgLinks> {
    await this.fresh(orgId);
    return this.linkIndexes.get(orgId);
  }

  /**
   * Opens the organization, which moves a repository in the first layout to the sharded one
   * (see migrate-layout.ts); the migration this process made, undefined when there was none.
   */
  async migrateLayout(orgId: string): Promise<LayoutMigration | undefined> {
    return (await this.orgs.handle(orgId)).layoutMigration;
  }

  /**
   * Called after `main` moved, for our commits and for commits of other processes once seen.
   * Commits on change requests' branches are not `main`'s: listeners never hear of them.
   */
  onCommit(listener: CommitListener): () => void {
    return this.orgs.onCommit((key, result) => {
      if (isMainKey(key)) listener(key, result);
    });
  }

  /** The organizations this store holds open (and so keeps state of and follows). */
  openOrganizations(): string[] {
    return this.orgs.openOrganizations().filter(isMainKey);
  }

  /** Whether the organization (or a change request's branch) is open now; asking does not open it. */
  isOpen(orgId: string): boolean {
    return parseStoreKey(orgId) !== undefined && this.orgs.isOpen(orgId);
  }

  /** The key under which every method here reads and writes change request `number`'s branch instead of `main`. */
  changeRequestKey(orgId: string, number: number): string {
    return changeRequestKey(orgId, number);
  }

  /** Starts change request `number`'s branch at `main` now; the commit it starts from. */
  async forkChangeRequest(orgId: string, number: number): Promise<string> {
    const fork = await forkBranch(this.gitdir(orgId), changeRequestRef(number), this.durability);
    await this.orgs.seedFromMain(orgId, changeRequestKey(orgId, number));
    return fork;
  }

  /** Makes change request `number`'s branch at `tip`, the commits a push landed with `keepRef` (see forkBranch). */
  async adoptPushedBranch(orgId: string, number: number, tip: string): Promise<void> {
    await forkBranch(this.gitdir(orgId), changeRequestRef(number), this.durability, tip);
    await this.orgs.seedFromMain(orgId, changeRequestKey(orgId, number));
  }

  /** The commit change request `number`'s branch points at; null when it has none. */
  async changeRequestTip(orgId: string, number: number): Promise<string | null> {
    return readRef(this.gitdir(orgId), changeRequestRef(number));
  }

  /** What change request `number` changed since its branch parted from `main`, file by file. */
  async changeRequestChanges(orgId: string, number: number, from?: string): Promise<BranchChanges> {
    const handle = await this.fresh(orgId);
    const tip = await this.changeRequestTip(orgId, number);
    if (!tip) throw new NotFoundError('change request branch');
    return branchChanges(handle.repo, handle.state.head as string, tip, from);
  }

  /** Brings change request `number` onto `main` (see mergeBranch); listeners hear of each artifact change. */
  async mergeChangeRequest(
    orgId: string,
    number: number,
    merge: Omit<BranchMerge, 'ref'>,
    ctx: ChangeContext,
  ): Promise<MergeOutcome> {
    let outcome: MergeOutcome | undefined;
    await this.orgs.writeMany(orgId, async (handle) => {
      outcome = await mergeBranch(handle, { ...merge, ref: changeRequestRef(number) }, ctx, this.env);
      return outcome.results;
    });
    return outcome as MergeOutcome;
  }

  /**
   * A use of the organization that reads nothing from the store yet (a search answered from
   * its index): it is opened if closed, and counts as recently used.
   */
  touch(orgId: string): void {
    if (parseStoreKey(orgId)) this.orgs.handle(orgId).catch(() => undefined);
  }

  /** Keeps the organization open until the returned function is called (a stream serving it). */
  hold(orgId: string): () => void {
    return parseStoreKey(orgId) ? this.orgs.hold(orgId) : () => undefined;
  }

  /** Called once the store closed an organization (idle, or least recently used past the limit). */
  onOrganizationClosed(listener: (orgId: string) => void): () => void {
    return this.orgs.onClose((key) => {
      if (isMainKey(key)) listener(key);
    });
  }

  /**
   * Catches up with `main` now (another process or native git may have moved it) and emits
   * what it finds, instead of waiting for the next read to notice. An organization not open is
   * left alone: it reads `main` when it next opens.
   */
  refresh(orgId: string): Promise<void> {
    return this.orgs.refresh(orgId);
  }

  /** Waits for writes under way, then closes the saved states: nothing writes to them after. */
  close(): Promise<void> {
    this.versions.close();
    return this.orgs.close();
  }

  /** A write of folder records alone: no artifact changed, so listeners hear nothing. */
  private async folderWrite(orgId: string, work: (handle: OrgHandle) => Promise<string>): Promise<string> {
    let commit = '';
    await this.write(orgId, async (handle) => {
      commit = await work(handle);
      return undefined;
    });
    return commit;
  }

  private fresh(orgId: string): Promise<OrgHandle> {
    return this.orgs.fresh(orgId);
  }

  private write<T extends CommitResult | undefined>(
    orgId: string,
    work: (handle: OrgHandle) => Promise<T>,
  ): Promise<T> {
    return this.orgs.write(orgId, work);
  }
}
