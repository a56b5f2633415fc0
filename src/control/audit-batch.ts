import type { SqlDatabase, SqlValue } from './sql/types.js';

/** Rows per INSERT: 11 columns each stays far below both backends' limit on parameters. */
const MAX_ROWS = 100;
const COLUMNS = '(at, user_id, org_id, kind, action, artifact_id, commit_sha, client, duration_ms, outcome, detail)';
const ROW_PLACEHOLDERS = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

const insertOf = (rows: number) => `INSERT INTO audit_log ${COLUMNS} VALUES ${Array(rows).fill(ROW_PLACEHOLDERS).join(', ')}`;

interface Pending {
  readonly values: readonly SqlValue[];
  readonly written: { resolve(): void; reject(error: unknown): void };
}

/** How long a recorded row may wait for others to share its INSERT. */
const FLUSH_AFTER_MS = 20;

/**
 * Audit rows are written in batches: every tool call records one, and one INSERT (one commit)
 * per call was the largest single cost of a read over MCP. Rows recorded within FLUSH_AFTER_MS
 * of each other are written together; each `write` resolves once its row is stored.
 */
export class AuditBatches {
  #pending: Pending[] = [];
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(private readonly db: SqlDatabase) {}

  write(values: readonly SqlValue[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ values, written: { resolve, reject } });
      this.#timer ??= setTimeout(() => this.#startFlush(), FLUSH_AFTER_MS);
    });
  }

  /** Resolves once every row recorded so far is written (or has failed). */
  async drain(): Promise<void> {
    if (this.#pending.length > 0) this.#startFlush();
    await this.#writing;
  }

  #startFlush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    // Batches go out one after another, so rows keep the order they were recorded in.
    this.#writing = this.#writing.then(() => this.#flush());
  }

  async #flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    for (let start = 0; start < batch.length; start += MAX_ROWS) {
      const rows = batch.slice(start, start + MAX_ROWS);
      try {
        await this.db.run(insertOf(rows.length), rows.flatMap((row) => row.values));
        for (const row of rows) row.written.resolve();
      } catch (error) {
        for (const row of rows) row.written.reject(error);
      }
    }
  }
}
