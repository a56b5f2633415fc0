import { existsSync } from 'node:fs';
import { NotFoundError } from '../../errors.js';
import {
  CommitGraphs,
  initBareRepo,
  KeyedMutex,
  MAIN_REF,
  lockRef,
  openRepo,
  readRef,
  refStampThisTick,
  writeRef,
  type Durability,
} from '../git/index.js';
import { OrgState } from '../catalog/index.js';
import { removeFormerCaches, SavedState, savedStateFile, savedStateMismatch, saveOrDrop } from '../persist/index.js';
import type { CommitListener, CommitResult, StoreLog } from '../types.js';
import { advanceTo, type KnownCommits } from './advance.js';
import type { ColdFeed } from './cold-feed.js';
import { layoutMoves, migrateLayout } from './migrate-layout.js';
import type { OrgHandle, RepoPlace, WriteEnv } from './org-handle.js';
import { OrgHandles, type OpenLimits } from './org-handles.js';
import type { DirectRecord } from './read-direct.js';

/**
 * How long the first save of a state built from Git waits. That save writes a row per artifact
 * and per commit (half a second of the SQLite thread at 10,000 artifacts); at once, it took that
 * from the search index, still building from the same reads for the first search.
 */
const FIRST_SAVE_DELAY_MS = 3_000;

export interface OrgKeeperOptions {
  /** The repository and branch a key names: an organization's `main`, or a change request's branch. */
  place(key: string): RepoPlace;
  /** The organization's directory among this process's caches (its saved state). */
  cacheDir(orgId: string): string;
  readonly durability: Durability;
  readonly env: WriteEnv;
  readonly log?: StoreLog;
  /** How many organizations stay open, and how long an unused one does; unlimited when absent. */
  readonly limits?: OpenLimits;
}

/**
 * Keeps each organization's state at `main`: opens it (from its saved state or from Git),
 * follows commits other processes made, and runs writes one at a time, in this process through
 * its write section and across processes through `main.lock`, telling listeners what changed.
 */
export class OrgKeeper {
  readonly #options: OrgKeeperOptions;
  readonly #handles: OrgHandles;
  readonly #mutex = new KeyedMutex();
  readonly #listeners = new Set<CommitListener>();
  readonly #closeListeners = new Set<(orgId: string) => void>();
  readonly #commitGraphs = new CommitGraphs();
  /** First saves of states built from Git, waiting (see FIRST_SAVE_DELAY_MS): each runs early at close. */
  readonly #firstSaves = new Map<OrgHandle, { readonly timer: NodeJS.Timeout; readonly run: () => Promise<void> }>();
  /** Organizations catching up in the background for current(). */
  readonly #catchingUp = new Set<OrgHandle>();
  #closed = false;

  constructor(options: OrgKeeperOptions) {
    this.#options = options;
    this.#handles = new OrgHandles(
      (key, place, feed) => this.#open(key, place, feed),
      (handle) => this.#closeOne(handle),
      options.limits,
    );
  }

  /** The organization, opened on first use (its state may lag behind `main`). */
  handle(orgId: string): Promise<OrgHandle> {
    return this.#handles.get(orgId.toLowerCase(), this.#options.place(orgId));
  }

  /** The organization with its state at the current `main`; a cheap ref read when nothing moved. */
  async fresh(orgId: string): Promise<OrgHandle> {
    const lease = this.#lease(orgId);
    try {
      return await this.#atMain(await lease.handle);
    } finally {
      lease.release();
    }
  }

  async #atMain(handle: OrgHandle): Promise<OrgHandle> {
    const stamp = refStampThisTick(handle.repo.gitdir, handle.repo.ref);
    if (stamp !== null && stamp === handle.refStamp) return handle;
    if (readRef(handle.repo.gitdir, handle.repo.ref) !== handle.state.head) {
      await this.#exclusive(handle, () => this.#catchUp(handle, true));
    }
    // The stamp was taken before the ref was read: if main moved in between, the next call
    // sees a different stamp and looks again.
    handle.refStamp = stamp;
    return handle;
  }

  /**
   * The organization as this process holds it, without waiting for commits other processes made
   * since: when `main` moved, catching up with them starts in the background, and listeners hear
   * of each commit as it is applied.
   */
  async current(orgId: string): Promise<OrgHandle> {
    const lease = this.#lease(orgId);
    try {
      const handle = await lease.handle;
      const stamp = refStampThisTick(handle.repo.gitdir, handle.repo.ref);
      if ((stamp === null || stamp !== handle.refStamp) && !this.#catchingUp.has(handle)) {
        this.#catchingUp.add(handle);
        void this.fresh(orgId)
          .catch(() => undefined)
          .finally(() => this.#catchingUp.delete(handle));
      }
      return handle;
    } finally {
      lease.release();
    }
  }

  /** See OrgHandles.readDirect: an artifact read from Git while the organization opens. */
  readDirect(orgId: string, id: string): Promise<DirectRecord | undefined> {
    return this.#handles.readDirect(orgId.toLowerCase(), this.#options.place(orgId), id);
  }

  /** See OrgHandles.takeFeed. */
  takeFeed(orgId: string): ReturnType<OrgHandles['takeFeed']> {
    return this.#handles.takeFeed(orgId.toLowerCase());
  }

  /** Runs `work` as the only writer of the organization, at the latest `main`. */
  async write<T extends CommitResult | undefined>(orgId: string, work: (handle: OrgHandle) => Promise<T>): Promise<T> {
    const lease = this.#lease(orgId);
    try {
      const handle = await lease.handle;
      const result = await this.#exclusive(handle, () => this.#locked(handle, () => work(handle)));
      this.#afterWrite(handle, result ? [result] : []);
      return result;
    } finally {
      lease.release();
    }
  }

  /** As write(), for a commit that changes several artifacts: listeners hear of each. */
  async writeMany(orgId: string, work: (handle: OrgHandle) => Promise<CommitResult[]>): Promise<CommitResult[]> {
    const handle = await this.handle(orgId);
    const results = await this.#exclusive(handle, () => this.#locked(handle, () => work(handle)));
    this.#afterWrite(handle, results);
    return results;
  }

  /**
   * A push: `judge` runs as the only writer of the branch, here and in every process (its lock),
   * with the state at its tip; once it passes, `land` starts bringing the pushed objects in
   * (`objects`, resolved once they are on disk) and names the commit the branch moves to (none:
   * it stays) with the commits' history as judging read it. The branch's new value is staged
   * while the objects land, and it moves once they have; the state follows without reading the
   * commits again. What the pushed commits changed is told to listeners and answered. Holding
   * the lock from judging to moving keeps every other write, of this process or another
   * replica, from landing in between.
   */
  async receive<T>(
    orgId: string,
    judge: (handle: OrgHandle) => Promise<T>,
    land: (judged: T) => {
      readonly objects: Promise<void>;
      readonly move?: KnownCommits;
    },
  ): Promise<{ judged: T; results: CommitResult[]; handle: OrgHandle }> {
    const lease = this.#lease(orgId);
    const handle = await lease.handle.catch((error: unknown) => {
      lease.release();
      throw error;
    });
    const results: CommitResult[] = [];
    let answer!: (judged: T) => void;
    let fail!: (error: unknown) => void;
    const answered = new Promise<T>((resolve, reject) => {
      answer = resolve;
      fail = reject;
    });
    // Answered once the branch moved and the state followed it: releasing the lock and saving
    // the state (a cache, rebuilt from Git if lost) still hold the section, but not the pusher.
    const section = this.#exclusive(handle, () =>
      this.#locked(handle, async () => {
        const verdict = await judge(handle);
        const { objects, move } = land(verdict);
        if (move) {
          // Awaited by the ref's rename; a failure to stage the ref first must not leave it unhandled.
          objects.catch(() => undefined);
          await writeRef(handle.repo.gitdir, handle.repo.ref, move.tip, this.#options.durability, objects);
          await this.#catchUp(handle, true, undefined, (found) => results.push(...found), move);
        } else await objects;
        answer(verdict);
      }),
    );
    void section.catch(fail).finally(() => lease.release());
    return { judged: await answered, results, handle };
  }

  /** Makes the repository of a new organization, then runs `work` (its first commit) as its only writer. */
  async create(orgId: string, work: (handle: OrgHandle) => Promise<CommitResult>): Promise<CommitResult> {
    const repo = openRepo(this.#options.place(orgId).gitdir, this.#options.durability);
    await initBareRepo(repo);
    const saved = await this.#openSaved(this.#options.cacheDir(orgId));
    const handle: OrgHandle = { orgId: orgId.toLowerCase(), repo, state: new OrgState(), saved };
    const result = await this.#exclusive(handle, () => this.#locked(handle, () => work(handle)));
    this.#handles.add(handle);
    this.#afterWrite(handle, [result]);
    return result;
  }

  /**
   * Catches up with `main` now and emits what it finds, instead of waiting for the next read to
   * notice; an organization not open is left alone (it reads `main` when it opens). Not a use:
   * an organization followed this way still closes when idle.
   */
  async refresh(orgId: string): Promise<void> {
    const lease = this.#handles.leaseIfOpen(orgId.toLowerCase());
    if (!lease) return;
    try {
      const handle = await lease.handle;
      await this.#exclusive(handle, () => this.#catchUp(handle, true));
    } finally {
      lease.release();
    }
  }

  /**
   * Keeps the organization open until the returned function is called (a stream serving it):
   * it is then neither closed as idle nor as the least recently used.
   */
  hold(orgId: string): () => void {
    const lease = this.#lease(orgId);
    lease.handle.catch(() => undefined);
    return () => lease.release();
  }

  /**
   * Gives `key` (a branch just made at `main`) the saved state of the organization's `main`, if
   * the organization is open and has one: the branch then opens from rows and catches up the
   * few commits since, instead of walking all history. A copy that fails leaves the branch to
   * build from Git, as any missing saved state does.
   */
  async seedFromMain(orgId: string, key: string): Promise<void> {
    const lease = this.#handles.leaseIfOpen(orgId.toLowerCase());
    if (!lease) return;
    try {
      const handle = await lease.handle;
      await this.#mutex.run(handle.orgId, async () => {
        await handle.saved?.copyTo(this.#options.cacheDir(key));
      });
    } catch {
      // Only a cache: the branch builds its state from Git.
    } finally {
      lease.release();
    }
  }

  /** Called once an organization was closed (its state saved and released): what was kept of it goes too. */
  onClose(listener: (orgId: string) => void): () => void {
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  isOpen(orgId: string): boolean {
    return this.#handles.isOpen(orgId.toLowerCase());
  }

  /** Called after `main` moved, for our commits and for commits of other processes once seen. */
  onCommit(listener: CommitListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The organizations opened (and so kept state of). */
  openOrganizations(): string[] {
    return this.#handles.keys();
  }

  /** Waits for writes under way, then closes the saved states: nothing writes to them after. */
  async close(): Promise<void> {
    this.#handles.stop();
    await Promise.all(this.#handles.closing());
    await this.#commitGraphs.close();
    // An open under way makes its saved state and saves what it built before the store stops
    // making them: otherwise a close right after a build from Git would drop the build's save.
    await this.#inEachSection(async () => undefined);
    const firstSaves = [...this.#firstSaves.values()];
    for (const { timer } of firstSaves) clearTimeout(timer);
    await Promise.allSettled(firstSaves.map(({ run }) => run()));
    this.#closed = true;
    await this.#inEachSection(async (handle) => {
      await handle.saved?.close();
      handle.saved = undefined;
    });
  }

  #lease(orgId: string): ReturnType<OrgHandles['lease']> {
    return this.#handles.lease(orgId.toLowerCase(), this.#options.place(orgId));
  }

  /**
   * Saves and releases an organization nobody uses any more: its first save if it waits (so it
   * reopens from saved state), then its saved state's connections, in its write section.
   */
  async #closeOne(handle: OrgHandle): Promise<void> {
    const firstSave = this.#firstSaves.get(handle);
    if (firstSave) {
      clearTimeout(firstSave.timer);
      await firstSave.run().catch(() => undefined);
    }
    await this.#mutex.run(handle.orgId, async () => {
      await handle.saved?.close();
      handle.saved = undefined;
    });
    for (const listener of this.#closeListeners) {
      try {
        listener(handle.orgId);
      } catch {
        // What a listener keeps is its own; the organization is closed all the same.
      }
    }
  }

  /** Runs `work` in the write section of each organization opened, once the ones under way end. */
  async #inEachSection(work: (handle: OrgHandle) => Promise<void>): Promise<void> {
    const settled = await Promise.allSettled(this.#handles.values());
    const opened = settled.flatMap((handle) => (handle.status === 'fulfilled' ? [handle.value] : []));
    await Promise.all(opened.map((handle) => this.#mutex.run(handle.orgId, () => work(handle))));
  }

  /** Loads the saved state and brings it to `main` (or builds it from Git, feeding `feed`). */
  async #open(key: string, place: RepoPlace, feed: ColdFeed): Promise<OrgHandle> {
    const { gitdir, ref } = place;
    if (readRef(gitdir, ref) === null) throw new NotFoundError(ref === MAIN_REF ? 'organization' : 'change request');
    await removeFormerCaches(gitdir);
    // Creating the file costs a synchronous moment (and a sync to disk): without one, the
    // state is built from Git first and the file made once the organization is open.
    const cacheDir = this.#options.cacheDir(key);
    const saved = existsSync(savedStateFile(cacheDir)) ? await this.#openSaved(cacheDir) : undefined;
    const state = await this.#loadChecked(key, gitdir, saved);
    // A state built from Git is saved later, into the file made again (see #saveFirstLater).
    if (!state) await saved?.close();
    const loaded: OrgHandle = {
      orgId: key,
      repo: openRepo(gitdir, this.#options.durability, ref),
      state: state ?? new OrgState(),
      saved: state && saved,
    };
    let built!: () => void;
    const ready = new Promise<void>((resolve) => (built = resolve));
    const open = this.#exclusive(loaded, async () => {
      try {
        await this.#catchUp(loaded, false, feed);
      } finally {
        feed.end();
      }
      if (layoutMoves(loaded.state).length > 0) {
        loaded.layoutMigration = await this.#locked(loaded, () => migrateLayout(loaded, this.#options.env));
      }
      built();
      this.#commitGraphs.refresh(gitdir, loaded.state.metas.size);
      if (!state) this.#saveFirstLater(loaded);
    });
    // Open once the state is at main; what catching up changed is saved in the write section,
    // which writes wait for and reads do not.
    open.catch(() => undefined);
    await Promise.race([ready, open]);
    return loaded;
  }

  /**
   * The saved state, unless it cannot be read or disagrees with the repository at the commit it
   * was saved at (see savedStateMismatch): a cache is never trusted over Git, it is rebuilt.
   */
  async #loadChecked(orgId: string, gitdir: string, saved: SavedState | undefined): Promise<OrgState | undefined> {
    const state = await saved?.load().catch(() => undefined);
    if (!state) return undefined;
    const mismatch = await savedStateMismatch(gitdir, state).catch(
      (error: unknown) =>
        `it could not be compared with the repository: ${error instanceof Error ? error.message : String(error)}`,
    );
    if (!mismatch) return state;
    this.#options.log?.('warn', 'the saved state disagrees with the repository: rebuilding it from Git', {
      orgId,
      mismatch,
    });
    return undefined;
  }

  /**
   * Follows commits written by another process; emits them when asked to. `known`: the branch
   * was just moved here to `tip` (a push), through commits whose history is already read.
   */
  async #catchUp(
    handle: OrgHandle,
    emit: boolean,
    feed?: ColdFeed,
    heard?: (results: CommitResult[]) => void,
    known?: KnownCommits,
  ): Promise<void> {
    const main = known?.tip ?? readRef(handle.repo.gitdir, handle.repo.ref);
    if (!main || main === handle.state.head) return;
    const bodies = this.#options.env.bodies;
    // Listeners hear of each commit as it is applied: a long catch-up feeds the search index as it goes.
    const applied = emit
      ? (results: CommitResult[]) => {
          heard?.(results);
          this.#afterWrite(handle, results);
        }
      : undefined;
    if ((await advanceTo(handle.repo, handle.state, main, { applied, bodies, feed, known })) === 'diverged') {
      handle.state = new OrgState();
      handle.saved?.replaceOnNextSave();
      await advanceTo(handle.repo, handle.state, main, { bodies, feed });
    }
  }

  async #locked<T>(handle: OrgHandle, work: () => Promise<T>): Promise<T> {
    const release = await lockRef(handle.repo.gitdir, handle.repo.ref);
    try {
      await this.#catchUp(handle, true);
      return await work();
    } finally {
      await release();
    }
  }

  #afterWrite(handle: OrgHandle, results: readonly CommitResult[]): void {
    for (const result of results) {
      for (const listener of this.#listeners) {
        try {
          listener(handle.orgId, result);
        } catch {
          // A listener's failure (say, the search index) must not undo or fail a commit.
        }
      }
    }
  }

  /** The organization's write section in this process; what it changed is saved before it ends. */
  #exclusive<T>(handle: OrgHandle, work: () => Promise<T>): Promise<T> {
    return this.#mutex.run(handle.orgId, async () => {
      try {
        return await work();
      } finally {
        if (handle.saved)
          handle.saved = await saveOrDrop(handle.saved, handle.state, this.#options.cacheDir(handle.orgId));
      }
    });
  }

  /**
   * Saves a state built from Git in FIRST_SAVE_DELAY_MS, in a write section of its own: the
   * file is opened then (a file that would not load has every row written again). Until then
   * writes save nothing: the first save writes every row anyway.
   */
  #saveFirstLater(handle: OrgHandle): void {
    const run = () => {
      this.#firstSaves.delete(handle);
      return this.#exclusive(handle, async () => {
        handle.saved = await this.#openSaved(this.#options.cacheDir(handle.orgId));
      });
    };
    const timer = setTimeout(() => void run().catch(() => undefined), FIRST_SAVE_DELAY_MS);
    timer.unref();
    this.#firstSaves.set(handle, { timer, run });
  }

  async #openSaved(dir: string): Promise<SavedState | undefined> {
    if (this.#closed) return undefined;
    const saved = await SavedState.open(dir);
    // Closed while the driver loaded: nothing may write to the file after close().
    if (this.#closed) await saved?.close();
    return this.#closed ? undefined : saved;
  }
}
