import { mkdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { openSqlite, transaction, type SqliteConnection } from '../sqlite/index.js';
import { OrgState } from './org-state.js';
import type { ArtifactMeta, FolderRecord, HistoryEntry } from './types.js';

/** Bumped whenever rows change shape: an older file is then simply rebuilt. */
const FORMAT = 2;
/** Rows per transaction and per read: a few milliseconds each, so the event loop keeps turning. */
const CHUNK = 500;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS head (one INTEGER PRIMARY KEY CHECK (one = 1), commit_id TEXT, root_tree TEXT);
  CREATE TABLE IF NOT EXISTS artifacts (id TEXT PRIMARY KEY, rank INTEGER NOT NULL, blob TEXT NOT NULL, meta TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS artifacts_rank ON artifacts (rank);
  CREATE TABLE IF NOT EXISTS folders (id TEXT PRIMARY KEY, folder TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS entries (position INTEGER PRIMARY KEY, workspace TEXT NOT NULL, entry TEXT NOT NULL);
`;

export const savedStateFile = (gitdir: string): string => path.join(gitdir, 'specbase', 'state.db');

/**
 * An organization's catalog, folders and history index in SQLite beside the repository
 * (`<gitdir>/specbase/state.db`), so a restart loads rows instead of walking history, then
 * catches up from the saved head. Written per change: a commit adds one entry row and
 * rewrites its artifact's row, so the file grows with artifacts plus commits and no write
 * costs more than a chunk. Only a cache: any problem with it means rebuild from Git.
 */
export class SavedState {
  /** The head this file held when we last read or wrote it; another value means another writer. */
  private savedHead: string | null = null;
  /** The next save rewrites the file whole (the state was rebuilt, not loaded from it). */
  private replaceAll = true;

  private constructor(private readonly db: SqliteConnection) {}

  /**
   * Opens or creates the file (and drops the whole-file JSON state of earlier versions);
   * undefined when it cannot be opened: the store then runs without it.
   */
  static async open(gitdir: string): Promise<SavedState | undefined> {
    const file = savedStateFile(gitdir);
    rmSync(path.join(path.dirname(file), 'index.json'), { force: true });
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      return new SavedState(await openDatabase(file));
    } catch {
      rmSync(file, { force: true });
      try {
        return new SavedState(await openDatabase(file));
      } catch {
        return undefined;
      }
    }
  }

  /** The saved state, read a chunk per turn of the event loop; undefined when there is none. */
  async load(): Promise<OrgState | undefined> {
    const head = this.db.prepare('SELECT commit_id, root_tree FROM head').get();
    if (typeof head?.commit_id !== 'string' || typeof head.root_tree !== 'string') return undefined;
    const state = new OrgState();
    const artifacts = this.db.prepare('SELECT id, rank, blob, meta FROM artifacts WHERE rank > ? ORDER BY rank LIMIT ?');
    for (let after = -1; ; await nextTurn()) {
      const rows = artifacts.all(after, CHUNK);
      for (const row of rows) state.restoreArtifact(JSON.parse(row.meta as string) as ArtifactMeta, row.blob as string, row.rank as number);
      if (rows.length < CHUNK) break;
      after = rows.at(-1)!.rank as number;
    }
    for (const row of this.db.prepare('SELECT folder FROM folders').all()) {
      state.setFolder(JSON.parse(row.folder as string) as FolderRecord);
    }
    const entries = this.db.prepare('SELECT position, workspace, entry FROM entries WHERE position >= ? ORDER BY position LIMIT ?');
    for (;;) {
      const rows = entries.all(state.entries.length, CHUNK);
      for (const row of rows) {
        if (row.position !== state.entries.length) throw new Error('saved history has a gap');
        state.addEntry(JSON.parse(row.entry as string) as HistoryEntry, row.workspace as string);
      }
      if (rows.length < CHUNK) break;
      await nextTurn();
    }
    state.moveTo(head.commit_id, head.root_tree);
    state.markSaved();
    this.savedHead = head.commit_id;
    this.replaceAll = false;
    return state;
  }

  /**
   * Writes what changed since the last save. A large save (after a rebuild) runs in chunks with
   * the head cleared first, so a crash in between leaves a file that loads as "none saved".
   * Returns false, writing nothing, when another process moved the file's head meanwhile.
   */
  async save(state: OrgState): Promise<boolean> {
    if (!state.head || !state.rootTree) return true;
    const fileHead = this.db.prepare('SELECT commit_id FROM head').get()?.commit_id ?? null;
    if (!this.replaceAll && fileHead !== this.savedHead) return false;
    const writes = this.pendingWrites(state);
    if (writes.length === 0 && !this.replaceAll && state.head === this.savedHead) return true;
    const setHead = this.db.prepare('INSERT OR REPLACE INTO head (one, commit_id, root_tree) VALUES (1, ?, ?)');
    if (writes.length <= CHUNK && !this.replaceAll) {
      transaction(this.db, () => {
        for (const write of writes) write();
        setHead.run(state.head, state.rootTree);
      });
    } else {
      transaction(this.db, () => {
        setHead.run(null, null);
        if (this.replaceAll) this.db.exec('DELETE FROM artifacts; DELETE FROM folders; DELETE FROM entries;');
      });
      for (let i = 0; i < writes.length; i += CHUNK) {
        transaction(this.db, () => writes.slice(i, i + CHUNK).forEach((write) => write()));
        await nextTurn();
      }
      setHead.run(state.head, state.rootTree);
    }
    state.markSaved();
    this.savedHead = state.head;
    this.replaceAll = false;
    return true;
  }

  /** The next save writes every row again: the state no longer follows the file. */
  replaceOnNextSave(): void {
    this.replaceAll = true;
  }

  close(): void {
    this.db.close();
  }

  private pendingWrites(state: OrgState): (() => void)[] {
    const putArtifact = this.db.prepare('INSERT OR REPLACE INTO artifacts (id, rank, blob, meta) VALUES (?, ?, ?, ?)');
    const dropArtifact = this.db.prepare('DELETE FROM artifacts WHERE id = ?');
    const putFolder = this.db.prepare('INSERT OR REPLACE INTO folders (id, folder) VALUES (?, ?)');
    const dropFolder = this.db.prepare('DELETE FROM folders WHERE id = ?');
    const putEntry = this.db.prepare('INSERT OR REPLACE INTO entries (position, workspace, entry) VALUES (?, ?, ?)');
    const artifactIds = this.replaceAll ? state.metas.keys() : state.unsaved.artifacts;
    const folderIds = this.replaceAll ? state.folders.keys() : state.unsaved.folders;
    const writes: (() => void)[] = [];
    for (const id of artifactIds) {
      const meta = state.metas.get(id);
      writes.push(meta ? () => putArtifact.run(id, state.orderOf(id) ?? null, state.blobs.get(id) ?? null, JSON.stringify(meta)) : () => dropArtifact.run(id));
    }
    for (const id of folderIds) {
      const folder = state.folders.get(id);
      writes.push(folder ? () => putFolder.run(id, JSON.stringify(folder)) : () => dropFolder.run(id));
    }
    for (let position = this.replaceAll ? 0 : state.unsaved.entriesFrom; position < state.entries.length; position++) {
      writes.push(() => putEntry.run(position, state.workspaceOfEntry(position), JSON.stringify(state.entries[position])));
    }
    return writes;
  }
}

/** Saves; a saved state that fails is closed and deleted (a cache: the next start rebuilds it). */
export async function saveOrDrop(saved: SavedState, state: OrgState, gitdir: string): Promise<SavedState | undefined> {
  try {
    await saved.save(state);
    return saved;
  } catch {
    try {
      saved.close();
    } finally {
      await rm(savedStateFile(gitdir), { force: true });
    }
    return undefined;
  }
}

async function openDatabase(file: string): Promise<SqliteConnection> {
  const db = await openSqlite(file, { busyTimeoutMs: 5_000 });
  try {
    db.exec('PRAGMA journal_mode = WAL');
    // A cache: losing the last writes to a power cut only means catching up from an older head.
    db.exec('PRAGMA synchronous = NORMAL');
    // Each commit rewrites a few pages; checkpoint often and truncate the log, so the file
    // grows with rows (one per artifact, one per commit), not with pages written.
    db.exec('PRAGMA wal_autocheckpoint = 64; PRAGMA journal_size_limit = 262144;');
    if (db.prepare('PRAGMA user_version').get<{ user_version: number }>()?.user_version !== FORMAT) {
      db.exec('DROP TABLE IF EXISTS head; DROP TABLE IF EXISTS artifacts; DROP TABLE IF EXISTS folders; DROP TABLE IF EXISTS entries;');
      db.exec(`PRAGMA user_version = ${FORMAT}`);
    }
    db.exec(SCHEMA);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
