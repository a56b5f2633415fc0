import { mkdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { openSqlite, ThreadConnection, type SqliteConnection, type Statement } from '../../sqlite/index.js';
import { OrgState } from '../catalog/index.js';
import type { ArtifactMeta, FolderRecord, HistoryEntry } from '../types.js';

/** Bumped whenever rows change shape: an older file is then simply rebuilt (3: entries keep their links; 4: links also by specbase:// URI and [[Title]]). */
const FORMAT = 4;
/** Rows per read: a few milliseconds each, so the event loop keeps turning. */
const CHUNK = 500;
/**
 * Rows per write, each made when its turn comes: a first save after a build from Git writes a
 * row per artifact and per commit, and making them all at once, then posting 500 to the SQLite
 * thread in one message, held the event loop 13 and 15 ms at 10,000 artifacts.
 */
const WRITE_CHUNK = 100;
const BUSY_TIMEOUT_MS = 5_000;
/**
 * Each connection's settings. A cache: losing the last writes to a power cut only means
 * catching up from an older head. Each commit rewrites a few pages; checkpoint often and
 * truncate the log, so the file grows with rows (one per artifact, one per commit), not with
 * pages written.
 */
const CONNECTION_SETTINGS =
  'PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 64; PRAGMA journal_size_limit = 262144;';
const SET_HEAD = 'INSERT OR REPLACE INTO head (one, commit_id, root_tree) VALUES (1, ?, ?)';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS head (one INTEGER PRIMARY KEY CHECK (one = 1), commit_id TEXT, root_tree TEXT);
  CREATE TABLE IF NOT EXISTS artifacts (id TEXT PRIMARY KEY, rank INTEGER NOT NULL, blob TEXT NOT NULL, meta TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS artifacts_rank ON artifacts (rank);
  CREATE TABLE IF NOT EXISTS folders (id TEXT PRIMARY KEY, folder TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS entries (position INTEGER PRIMARY KEY, workspace TEXT NOT NULL, entry TEXT NOT NULL);
`;

/** The saved state in `dir`, the organization's directory among this process's caches. */
export const savedStateFile = (dir: string): string => path.join(dir, 'state.db');

/**
 * An organization's catalog, folders and history index in SQLite among this process's caches
 * (`<cache>/orgs/<orgId>/state.db`), so a restart loads rows instead of walking history, then
 * catches up from the saved head. Never in the repository: replicas share repositories, over
 * NFS in production, where SQLite's locking cannot be trusted, and each keeps its own. Written
 * per change: a commit adds one entry row and rewrites its artifact's row, so the file grows
 * with artifacts plus commits and no write costs more than a chunk. Only a cache: any problem
 * with it means rebuild from Git. Rows are read on this thread and written through the SQLite
 * thread (src/sqlite/sqlite-thread.ts), so a slow disk never holds the event loop.
 */
export class SavedState {
  /** The head this file held when we last read or wrote it; another value means another writer. */
  private savedHead: string | null = null;
  /** The next save rewrites the file whole (the state was rebuilt, not loaded from it). */
  private replaceAll = true;

  private constructor(
    private readonly db: SqliteConnection,
    private readonly writer: ThreadConnection,
  ) {}

  /** Opens or creates the file in `dir`; undefined when it cannot be opened: the store then runs without it. */
  static async open(dir: string): Promise<SavedState | undefined> {
    const file = savedStateFile(dir);
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      return await SavedState.openFile(file);
    } catch {
      rmSync(file, { force: true });
      try {
        return await SavedState.openFile(file);
      } catch {
        return undefined;
      }
    }
  }

  private static async openFile(file: string): Promise<SavedState> {
    const db = await openDatabase(file);
    try {
      const writer = await ThreadConnection.open({
        driver: db.driver,
        file: path.resolve(file),
        busyTimeoutMs: BUSY_TIMEOUT_MS,
        setup: CONNECTION_SETTINGS,
      });
      return new SavedState(db, writer);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** The saved state, read a chunk per turn of the event loop; undefined when there is none. */
  async load(): Promise<OrgState | undefined> {
    const head = this.db.prepare('SELECT commit_id, root_tree FROM head').get();
    if (typeof head?.commit_id !== 'string' || typeof head.root_tree !== 'string') return undefined;
    const state = new OrgState();
    const artifacts = this.db.prepare(
      'SELECT id, rank, blob, meta FROM artifacts WHERE rank > ? ORDER BY rank LIMIT ?',
    );
    for (let after = -1; ; await nextTurn()) {
      const rows = artifacts.all(after, CHUNK);
      for (const row of rows)
        state.restoreArtifact(JSON.parse(row.meta as string) as ArtifactMeta, row.blob as string, row.rank as number);
      if (rows.length < CHUNK) break;
      after = rows.at(-1)!.rank as number;
    }
    for (const row of this.db.prepare('SELECT folder FROM folders').all()) {
      state.setFolder(JSON.parse(row.folder as string) as FolderRecord);
    }
    const entries = this.db.prepare(
      'SELECT position, workspace, entry FROM entries WHERE position >= ? ORDER BY position LIMIT ?',
    );
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
   * A consistent copy of the file as last saved, written to `dir` (replacing what is there): a
   * change request's branch starts from its organization's state, not from a walk of all history.
   */
  async copyTo(dir: string): Promise<void> {
    const file = path.resolve(savedStateFile(dir));
    mkdirSync(dir, { recursive: true });
    rmSync(file, { force: true });
    await this.writer.run('VACUUM INTO ?', [file]);
  }

  /**
   * Writes what changed since the last save. A large save (after a rebuild) runs in chunks with
   * the head cleared first, so a crash in between leaves a file that loads as "none saved".
   * Returns false, writing nothing, when another process moved the file's head meanwhile.
   */
  async save(state: OrgState): Promise<boolean> {
    if (!state.head || !state.rootTree) return true;
    // Asked of the writer's thread, as the writes are: on the event loop this read shared SQLite's
    // per-file mutexes with that thread, which holds them through its flushes on a slow disk.
    const fileHead =
      (await this.writer.get<{ commit_id: string | null }>('SELECT commit_id FROM head'))?.commit_id ?? null;
    if (!this.replaceAll && fileHead !== this.savedHead) return false;
    const writes = this.pendingWrites(state);
    const first = nextChunk(writes);
    if (first.length === 0 && !this.replaceAll && state.head === this.savedHead) return true;
    if (first.length < WRITE_CHUNK && !this.replaceAll) {
      await this.writer.batch([...first, { sql: SET_HEAD, params: [state.head, state.rootTree] }]);
    } else {
      const clear = ['DELETE FROM artifacts', 'DELETE FROM folders', 'DELETE FROM entries'].map((sql) => ({
        sql,
        params: [],
      }));
      await this.writer.batch([{ sql: SET_HEAD, params: [null, null] }, ...(this.replaceAll ? clear : [])]);
      for (let chunk = first; chunk.length > 0; chunk = nextChunk(writes)) await this.writer.batch(chunk);
      await this.writer.batch([{ sql: SET_HEAD, params: [state.head, state.rootTree] }]);
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

  /**
   * This thread's connection first: the last connection to close checkpoints the WAL into the
   * file, flushes it and removes the WAL, which on a busy disk takes hundreds of milliseconds
   * and must happen in the writer's thread, not on the event loop.
   */
  async close(): Promise<void> {
    this.db.close();
    await this.writer.close();
  }

  /**
   * Each change as a statement, made as it is asked for (a rebuild has one per artifact and
   * commit). The state does not change while it is saved: saves run in the write section.
   */
  private *pendingWrites(state: OrgState): Generator<Statement> {
    for (const id of this.replaceAll ? state.metas.keys() : state.unsaved.artifacts) {
      const meta = state.metas.get(id);
      yield meta
        ? {
            sql: PUT_ARTIFACT,
            params: [id, state.orderOf(id) ?? null, state.blobs.get(id) ?? null, JSON.stringify(meta)],
          }
        : { sql: DROP_ARTIFACT, params: [id] };
    }
    for (const id of this.replaceAll ? state.folders.keys() : state.unsaved.folders) {
      const folder = state.folders.get(id);
      yield folder ? { sql: PUT_FOLDER, params: [id, JSON.stringify(folder)] } : { sql: DROP_FOLDER, params: [id] };
    }
    for (let position = this.replaceAll ? 0 : state.unsaved.entriesFrom; position < state.entries.length; position++) {
      yield {
        sql: PUT_ENTRY,
        params: [position, state.workspaceOfEntry(position), JSON.stringify(state.entries[position])],
      };
    }
  }
}

/** The next WRITE_CHUNK statements (fewer at the end). */
function nextChunk(writes: Iterator<Statement>): Statement[] {
  const chunk: Statement[] = [];
  for (let next = writes.next(); !next.done; next = writes.next()) {
    chunk.push(next.value);
    if (chunk.length === WRITE_CHUNK) break;
  }
  return chunk;
}

const PUT_ARTIFACT = 'INSERT OR REPLACE INTO artifacts (id, rank, blob, meta) VALUES (?, ?, ?, ?)';
const DROP_ARTIFACT = 'DELETE FROM artifacts WHERE id = ?';
const PUT_FOLDER = 'INSERT OR REPLACE INTO folders (id, folder) VALUES (?, ?)';
const DROP_FOLDER = 'DELETE FROM folders WHERE id = ?';
const PUT_ENTRY = 'INSERT OR REPLACE INTO entries (position, workspace, entry) VALUES (?, ?, ?)';

/** Saves; a saved state that fails is closed and deleted (a cache: the next start rebuilds it). */
export async function saveOrDrop(saved: SavedState, state: OrgState, dir: string): Promise<SavedState | undefined> {
  try {
    await saved.save(state);
    return saved;
  } catch {
    try {
      await saved.close();
    } finally {
      await rm(savedStateFile(dir), { force: true });
    }
    return undefined;
  }
}

async function openDatabase(file: string): Promise<SqliteConnection> {
  const db = await openSqlite(file, { busyTimeoutMs: BUSY_TIMEOUT_MS });
  try {
    db.exec(`PRAGMA journal_mode = WAL; ${CONNECTION_SETTINGS}`);
    if (db.prepare('PRAGMA user_version').get<{ user_version: number }>()?.user_version !== FORMAT) {
      db.exec(
        'DROP TABLE IF EXISTS head; DROP TABLE IF EXISTS artifacts; DROP TABLE IF EXISTS folders; DROP TABLE IF EXISTS entries;',
      );
      db.exec(`PRAGMA user_version = ${FORMAT}`);
    }
    db.exec(SCHEMA);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
