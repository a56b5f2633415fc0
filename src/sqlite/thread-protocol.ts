import type { SqliteDriverName, SqliteValue } from './types.js';

/** What the thread is opened with (workerData). */
export interface ThreadOpen {
  readonly driver: SqliteDriverName;
  readonly file: string;
  readonly busyTimeoutMs: number;
  /** Run once on the new connection: its per-connection settings (PRAGMAs). */
  readonly setup: string;
}

export type ThreadCall =
  | { readonly op: 'all' | 'get' | 'run'; readonly sql: string; readonly params: readonly SqliteValue[] }
  | { readonly op: 'exec'; readonly sql: string }
  /** Rolls back the open transaction, if SQLite has not already. */
  | { readonly op: 'rollback' };

export type ThreadRequest = ThreadCall & { readonly seq: number };

export type ThreadReply =
  | { readonly seq: number; readonly ok: true; readonly value: unknown }
  | { readonly seq: number; readonly ok: false; readonly message: string; readonly code?: string };
