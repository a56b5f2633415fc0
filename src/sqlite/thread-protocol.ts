import type { SqliteDriverName, SqliteValue } from './types.js';

/** A connection the thread opens: file, driver, and the per-connection settings (PRAGMAs) to run first. */
export interface ConnectionSpec {
  readonly driver: SqliteDriverName;
  readonly file: string;
  readonly busyTimeoutMs: number;
  readonly setup: string;
}

export interface Statement {
  readonly sql: string;
  readonly params: readonly SqliteValue[];
}

export type ThreadCall =
  /** Answers the new connection's number. */
  | { readonly op: 'open'; readonly spec: ConnectionSpec }
  | {
      readonly op: 'all' | 'get' | 'run';
      readonly conn: number;
      readonly sql: string;
      readonly params: readonly SqliteValue[];
    }
  | { readonly op: 'exec'; readonly conn: number; readonly sql: string }
  /** The statements as one IMMEDIATE transaction: all or none. */
  | { readonly op: 'batch'; readonly conn: number; readonly statements: readonly Statement[] }
  /** Rolls back the connection's open transaction, if SQLite has not already. */
  | { readonly op: 'rollback'; readonly conn: number }
  | { readonly op: 'close'; readonly conn: number };

export type ThreadReply =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string; readonly code?: string };
