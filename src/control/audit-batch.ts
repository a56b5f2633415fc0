import type { SqlDatabase, SqlValue } from './sql/types.js';

/** Rows per INSERT: 11 columns each stays far below both backends' limit on parameters. */
const MAX_ROWS = 100;
const COLUMNS = '(at, user_id, org_id, kind, action, artifact_id, commit_sha, client, duration_ms, outcome, detail)';
const ROW_PLACEHOLDERS = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

const insertOf = (rows: number) =>
  `INSERT INTO audit_log ${COLUMNS} VALUES ${Array(rows).fill(ROW_PLACEHOLDERS).join(', ')}`;

interface Pending {
  readonly values: readonly SqlValue[];
  /** Resolves the row's `write`: once it is stored, held for a later attempt, or dropped. */
  readonly settle: () => void;
}

/** How long a recorded row may wait for others to share its INSERT. */
const FLUSH_AFTER_MS = 20;
/** Rows kept in memory while the database refuses them, unless configured otherwise. */
export const DEFAULT_HELD_ROWS = 10_000;
/** With no new row to write, held rows are tried again after this long, doubling up to the last. */
const RETRY_MS = { first: 250, last: 5_000 };

/**
 * What the audit log has to tell an operator, once per failure burst each: that rows cannot be
 * written (and are held), and when that ends, how many rows it cost.
 */
export type AuditEvent =
  | { readonly kind: 'failing'; readonly error: unknown; readonly held: number }
  | {
      readonly kind: 'recovered' | 'closed';
      readonly dropped: number;
      readonly held: number;
      readonly seconds: number;
    };

export interface AuditBatchOptions {
  /** Rows held in memory while they cannot be written; past this the oldest are dropped (and counted). */
  readonly heldRows?: number;
  readonly report?: (event: AuditEvent) => void;
}

/** Rows waiting in memory for the database, and rows lost since the process started. */
export interface AuditHealth {
  readonly heldRows: number;
  readonly droppedRows: number;
}

/**
 * Audit rows are written in batches: every tool call records one, and one INSERT (one commit)
 * per call was the largest single cost of a read over MCP. Rows recorded within FLUSH_AFTER_MS
 * of each other are written together; each `write` resolves once its row is stored.
 *
 * A batch the database refuses (a full or read-only disk, PostgreSQL down) is not lost: its
 * rows are held, in order, and tried again with the next batch, or after a growing pause when
 * none comes. At most `heldRows` are held; past that the oldest are dropped and counted. The
 * caller's work never fails for the audit log: `write` resolves once the row is held too.
 */
export class AuditBatches {
  #pending: Pending[] = [];
  #timer: NodeJS.Timeout | undefined;
  #retry: NodeJS.Timeout | undefined;
  #retryMs = RETRY_MS.first;
  #writing: Promise<void> = Promise.resolve();
  /** Rows of the batch being written, not yet stored. */
  #inFlight = 0;
  /** The failure burst under way: since when, and how many rows it dropped. */
  #outage: { since: number; dropped: number } | undefined;
  #dropped = 0;
  #closed = false;
  readonly #heldRows: number;
  readonly #report: (event: AuditEvent) => void;

  constructor(
    private readonly db: SqlDatabase,
    options: AuditBatchOptions = {},
  ) {
    this.#heldRows = Math.max(0, options.heldRows ?? DEFAULT_HELD_ROWS);
    this.#report = options.report ?? (() => undefined);
  }

  write(values: readonly SqlValue[]): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#pending.push({ values, settle: resolve });
      if (this.#closed) return this.#drop(this.#pending.length);
      if (this.#outage) this.#trim();
      this.#timer ??= setTimeout(() => this.#startFlush(), FLUSH_AFTER_MS);
    });
  }

  health(): AuditHealth {
    return { heldRows: this.#outage ? this.#inFlight + this.#pending.length : 0, droppedRows: this.#dropped };
  }

  /** Resolves once every row recorded so far is written, or held after one more attempt. */
  async drain(): Promise<void> {
    if (this.#pending.length > 0) this.#startFlush();
    await this.#writing;
  }

  /** One last attempt; rows still refused are dropped and counted, and a burst under way is reported. */
  async close(): Promise<void> {
    await this.drain();
    this.#closed = true;
    clearTimeout(this.#timer);
    clearTimeout(this.#retry);
    this.#drop(this.#pending.length);
    if (this.#outage) this.#end('closed');
  }

  #startFlush(): void {
    clearTimeout(this.#timer);
    clearTimeout(this.#retry);
    this.#timer = undefined;
    this.#retry = undefined;
    // Batches go out one after another, so rows keep the order they were recorded in.
    this.#writing = this.#writing.then(() => this.#flush());
  }

  async #flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    this.#inFlight = batch.length;
    for (let start = 0; start < batch.length; start += MAX_ROWS) {
      const rows = batch.slice(start, start + MAX_ROWS);
      try {
        await this.db.run(
          insertOf(rows.length),
          rows.flatMap((row) => row.values),
        );
      } catch (error) {
        this.#inFlight = 0;
        this.#hold(batch.slice(start), error);
        return;
      }
      this.#inFlight -= rows.length;
      for (const row of rows) row.settle();
    }
    if (this.#outage && batch.length > 0) this.#end('recovered');
  }

  /** Rows the database refused go back before the ones recorded meanwhile, to be tried again. */
  #hold(rows: Pending[], error: unknown): void {
    this.#pending = [...rows, ...this.#pending];
    for (const row of rows) row.settle();
    if (!this.#outage) {
      this.#outage = { since: Date.now(), dropped: 0 };
      this.#retryMs = RETRY_MS.first;
      this.#report({ kind: 'failing', error, held: Math.min(this.#pending.length, this.#heldRows) });
    }
    this.#trim();
    if (this.#closed || this.#timer) return;
    this.#retry = setTimeout(() => this.#startFlush(), this.#retryMs);
    this.#retry.unref();
    this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MS.last);
  }

  /** Past the bound, the oldest rows go: the latest say most about the state the outage left. */
  #trim(): void {
    this.#drop(this.#pending.length - this.#heldRows);
  }

  #drop(count: number): void {
    if (count <= 0) return;
    for (const row of this.#pending.splice(0, count)) row.settle();
    this.#dropped += count;
    if (this.#outage) this.#outage.dropped += count;
  }

  #end(kind: 'recovered' | 'closed'): void {
    const outage = this.#outage!;
    this.#outage = undefined;
    this.#report({
      kind,
      dropped: outage.dropped,
      held: this.#pending.length,
      seconds: Math.round((Date.now() - outage.since) / 1000),
    });
  }
}
