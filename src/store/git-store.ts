import { existsSync } from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ArtifactType } from '../artifacts/index.js';
import { DEFAULT_LIMITS } from '../config/index.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { isUuid } from '../ids.js';
import { advanceTo } from './advance.js';
import { CommitGraphs } from './commit-graph.js';
import { FSYNC, type Durability } from './atomic-fs.js';
import { createArtifact, validateNewArtifact } from './create-artifact.js';
import { createFolder, validateNewFolder } from './create-folder.js';
import { layoutMoves, migrateLayout } from './migrate-layout.js';
import { KeyedMutex } from './mutex.js';
import { BodyCache, readBodyAt, readRecord, type OrgHandle, type WriteEnv } from './org-handle.js';
import { OrgState } from './org-state.js';
import type { ColdFeed } from './cold-feed.js';
import { OrgHandles } from './org-handles.js';
import { readDocuments, readMany } from './read-many.js';
import { lockMain } from './ref-lock.js';
import { mainStamp, readMain } from './refs.js';
import { initBareRepo, openRepo } from './repo.js';
import { saveOrDrop, SavedState, savedStateFile } from './saved-state.js';
import type {
  ArtifactMeta, ArtifactRecord, Author, BodyChange, CatalogView, ChangeContext, CommitListener,
  CommitResult, FolderRecord, HistoryEntry, LayoutMigration, NewArtifact, NewFolder, StoreDocuments,
} from './types.js';
import { updateArtifact, validateBodyChange } from './update-artifact.js';

export interface GitStoreOptions {
  readonly dataDir: string;
  /** The service's identity as committer; authors are always the signed-in users. */
  readonly committer?: Author;
  readonly maxDocumentBytes?: number;
  /** How commits reach the disk; FSYNC (the default) acknowledges a write only once it survives a power loss. */
  readonly durability?: Durability;
}

export interface NewOrganization {
  readonly productId?: string;
  readonly productTitle: string;
  readonly productBody: string;
  readonly workspaceId: string;
}

/**
 * Artifacts as markdown files in one bare Git repository per organization (`main` only).
 * Writes are serialized per organization in this process and, through `main.lock`, across
 * processes; reads are served from an index that follows `main`, whoever moved it.
 */
export class GitStore {
  private readonly dataDir: string;
  private readonly durability: Durability;
  private readonly env: WriteEnv;
  private readonly handles = new OrgHandles((key, gitdir, feed) => this.open(key, gitdir, feed));
  private readonly mutex = new KeyedMutex();
  private readonly listeners = new Set<CommitListener>();
  private readonly commitGraphs = new CommitGraphs();
  private closed = false;

  constructor(options: GitStoreOptions) {
    this.dataDir = path.resolve(options.dataDir);
    this.durability = options.durability ?? FSYNC;
    this.env = {
      committer: options.committer ?? { name: 'Specbase', email: 'specbase@localhost' },
      maxDocumentBytes: options.maxDocumentBytes ?? DEFAULT_LIMITS.maxDocumentBytes,
      bodies: new BodyCache(),
    };
  }

  gitdir(orgId: string): string {
    if (!isUuid(orgId)) throw new NotFoundError('organization');
    return path.join(this.dataDir, 'orgs', `${orgId.toLowerCase()}.git`);
  }

  async exists(orgId: string): Promise<boolean> {
    return isUuid(orgId) && (await readMain(this.gitdir(orgId))) !== null;
  }

  async initOrganization(orgId: string, input: NewOrganization, ctx: ChangeContext): Promise<CommitResult> {
    const gitdir = this.gitdir(orgId);
    const product: NewArtifact = {
      ...(input.productId ? { id: input.productId } : {}),
      type: 'product', parentId: null, workspaceId: input.workspaceId, title: input.productTitle, body: input.productBody,
    };
    validateNewArtifact(product, this.env);
    if (await this.exists(orgId)) throw new ConflictError('the organization already has a repository');
    const repo = openRepo(gitdir, this.durability);
    await initBareRepo(repo);
    const handle: OrgHandle = { orgId: orgId.toLowerCase(), repo, state: new OrgState(), saved: await this.openSaved(gitdir) };
    const result = await this.exclusive(handle, () =>
      this.locked(handle, async () => {
        if (handle.state.head) throw new ConflictError('the organization already has a repository');
        return createArtifact(handle, product, ctx, this.env);
      }),
    );
    this.handles.add(handle);
    this.afterWrite(handle, [result]);
    return result;
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
    const direct = await this.handles.readDirect(orgId.toLowerCase(), this.gitdir(orgId), id.toLowerCase());
    if (direct) return direct.meta;
    return (await this.fresh(orgId)).state.metas.get(id.toLowerCase());
  }

  /** As meta(): answered from Git directly while the catalog is being built. */
  async read(orgId: string, id: string): Promise<ArtifactRecord> {
    if (!isUuid(id)) throw new NotFoundError('artifact');
    const direct = await this.handles.readDirect(orgId.toLowerCase(), this.gitdir(orgId), id.toLowerCase());
    if (direct) return { ...direct.meta, body: direct.body };
    return readRecord(await this.fresh(orgId), id.toLowerCase(), this.env.bodies);
  }

  /** See read-many.ts: all artifacts (or those of `ids`) with bodies, read from git in bulk. */
  async readMany(orgId: string, ids?: readonly string[]): Promise<ArtifactRecord[]> {
    return readMany(await this.fresh(orgId), ids?.map((id) => id.toLowerCase()));
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
    this.handle(orgId).catch(() => undefined);
    return readDocuments(this.handles.takeFeed(orgId.toLowerCase()), () => this.fresh(orgId), take);
  }

  async bodyAt(orgId: string, id: string, commit: string): Promise<string | undefined> {
    if (!isUuid(id)) throw new NotFoundError('artifact');
    const handle = await this.fresh(orgId);
    const meta = handle.state.metas.get(id.toLowerCase());
    if (!meta) throw new NotFoundError('artifact');
    if (!/^[0-9a-f]{40}$/.test(commit)) return undefined;
    return readBodyAt(handle.repo, meta, commit);
  }

  async children(orgId: string, parentId: string | null, type?: ArtifactType): Promise<ArtifactMeta[]> {
    return (await this.fresh(orgId)).state.children(parentId?.toLowerCase() ?? null, type);
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

  /**
   * Opens the organization, which moves a repository in the first layout to the sharded one
   * (see migrate-layout.ts); the migration this process made, undefined when there was none.
   */
  async migrateLayout(orgId: string): Promise<LayoutMigration | undefined> {
    return (await this.handle(orgId)).layoutMigration;
  }

  /** Called after `main` moved, for our commits and for commits of other processes once seen. */
  onCommit(listener: CommitListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Catches up with `main` now (another process or native git may have moved it) and emits
   * what it finds, instead of waiting for the next read to notice.
   */
  /** The organizations this store has opened (and so keeps state of). */
  openOrganizations(): string[] {
    return this.handles.keys();
  }

  async refresh(orgId: string): Promise<void> {
    const handle = await this.handle(orgId);
    await this.exclusive(handle, () => this.catchUp(handle, true));
  }

  /** Waits for writes under way, then closes the saved states: nothing writes to them after. */
  async close(): Promise<void> {
    this.closed = true;
    await this.commitGraphs.close();
    const handles = await Promise.allSettled(this.handles.values());
    await Promise.all(
      handles.map(async (settled) => {
        if (settled.status !== 'fulfilled') return;
        const handle = settled.value;
        await this.mutex.run(handle.orgId, async () => {
          await handle.saved?.close();
          handle.saved = undefined;
        });
      }),
    );
  }

  private handle(orgId: string): Promise<OrgHandle> {
    return this.handles.get(orgId.toLowerCase(), this.gitdir(orgId));
  }

  /** Loads the saved state and brings it to `main` (or builds it from Git, feeding `feed`). */
  private async open(key: string, gitdir: string, feed: ColdFeed): Promise<OrgHandle> {
    if ((await readMain(gitdir)) === null) throw new NotFoundError('organization');
    // Creating the file costs a synchronous moment (and a sync to disk): without one, the
    // state is built from Git first and the file made once the organization is open.
    const saved = existsSync(savedStateFile(gitdir)) ? await this.openSaved(gitdir) : undefined;
    const state = await saved?.load().catch(() => undefined);
    const loaded: OrgHandle = { orgId: key, repo: openRepo(gitdir, this.durability), state: state ?? new OrgState(), saved };
    if (!state) saved?.replaceOnNextSave();
    let built!: () => void;
    const ready = new Promise<void>((resolve) => (built = resolve));
    const open = this.exclusive(loaded, async () => {
      try {
        await this.catchUp(loaded, false, feed);
      } finally {
        feed.end();
      }
      if (layoutMoves(loaded.state).length > 0) {
        loaded.layoutMigration = await this.locked(loaded, () => migrateLayout(loaded, this.env));
      }
      built();
      this.commitGraphs.refresh(gitdir, loaded.state.metas.size);
      if (!loaded.saved) {
        await nextTurn();
        loaded.saved = await this.openSaved(gitdir);
      }
    });
    // Open once the state is at main; saving it (seconds after a build from the root) goes on
    // in the write section, which writes wait for and reads do not.
    open.catch(() => undefined);
    await Promise.race([ready, open]);
    return loaded;
  }

  /** The organization with its state at the current `main`; a cheap ref read when nothing moved. */
  private async fresh(orgId: string): Promise<OrgHandle> {
    const handle = await this.handle(orgId);
    const stamp = mainStamp(handle.repo.gitdir);
    if (stamp !== null && stamp === handle.refStamp) return handle;
    if ((await readMain(handle.repo.gitdir)) !== handle.state.head) {
      await this.exclusive(handle, () => this.catchUp(handle, true));
    }
    // The stamp was taken before the ref was read: if main moved in between, the next call
    // sees a different stamp and looks again.
    handle.refStamp = stamp;
    return handle;
  }

  /** Follows commits written by another process; emits them when asked to. */
  private async catchUp(handle: OrgHandle, emit: boolean, feed?: ColdFeed): Promise<void> {
    const main = await readMain(handle.repo.gitdir);
    if (!main || main === handle.state.head) return;
    let applied = await advanceTo(handle.repo, handle.state, main, { collect: emit, bodies: this.env.bodies, feed });
    if (applied === 'diverged') {
      handle.state = new OrgState();
      handle.saved?.replaceOnNextSave();
      applied = await advanceTo(handle.repo, handle.state, main, { collect: false, bodies: this.env.bodies, feed });
    }
    if (emit && applied !== 'diverged') this.afterWrite(handle, applied);
  }

  private async locked<T>(handle: OrgHandle, work: () => Promise<T>): Promise<T> {
    const release = await lockMain(handle.repo.gitdir);
    try {
      await this.catchUp(handle, true);
      return await work();
    } finally {
      await release();
    }
  }

  private async write<T extends CommitResult | undefined>(orgId: string, work: (handle: OrgHandle) => Promise<T>): Promise<T> {
    const handle = await this.handle(orgId);
    const result = await this.exclusive(handle, () => this.locked(handle, () => work(handle)));
    this.afterWrite(handle, result ? [result] : []);
    return result;
  }

  private afterWrite(handle: OrgHandle, results: readonly CommitResult[]): void {
    for (const result of results) {
      for (const listener of this.listeners) {
        try {
          listener(handle.orgId, result);
        } catch {
          // A listener's failure (say, the search index) must not undo or fail a commit.
        }
      }
    }
  }

  /** The organization's write section in this process; what it changed is saved before it ends. */
  private exclusive<T>(handle: OrgHandle, work: () => Promise<T>): Promise<T> {
    return this.mutex.run(handle.orgId, async () => {
      try {
        return await work();
      } finally {
        await this.save(handle);
      }
    });
  }

  private async openSaved(gitdir: string): Promise<SavedState | undefined> {
    if (this.closed) return undefined;
    const saved = await SavedState.open(gitdir);
    // Closed while the driver loaded: nothing may write to the file after close().
    if (this.closed) await saved?.close();
    return this.closed ? undefined : saved;
  }

  private async save(handle: OrgHandle): Promise<void> {
    if (handle.saved) handle.saved = await saveOrDrop(handle.saved, handle.state, handle.repo.gitdir);
  }
}
