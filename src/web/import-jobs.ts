import { randomBytes } from 'node:crypto';
import type { ImportReport, ImportSource } from '../domain/types.js';

/** What one upload is at: checked and waiting for the go-ahead, importing, or done. */
export type ImportJob =
  | { readonly state: 'checked'; readonly sources: readonly ImportSource[]; readonly folderId?: string }
  | { readonly state: 'running'; done: number; total: number }
  | { readonly state: 'done'; readonly report: ImportReport }
  | { readonly state: 'failed'; readonly message: string };

interface Held {
  readonly userId: string;
  readonly orgId: string;
  job: ImportJob;
  expires: number;
}

/** How long a checked upload waits for its go-ahead, and a result stays to be read. */
const KEEP_MS = 30 * 60 * 1000;

/**
 * Uploads between their dry run and their import, and imports running: the files are checked
 * once and not sent twice, and the import runs on while its page shows how far it got. Each
 * user holds one upload per organization at a time (a new one replaces it), so memory stays
 * within one import's limit per person; only its owner can see or start it.
 */
export class ImportJobs {
  readonly #held = new Map<string, Held>();

  hold(userId: string, orgId: string, job: ImportJob): string {
    this.#sweep();
    for (const [token, held] of this.#held)
      if (held.userId === userId && held.orgId === orgId && held.job.state !== 'running') this.#held.delete(token);
    const token = randomBytes(16).toString('base64url');
    this.#held.set(token, { userId, orgId, job, expires: Date.now() + KEEP_MS });
    return token;
  }

  get(token: string, userId: string, orgId: string): ImportJob | undefined {
    this.#sweep();
    const held = this.#held.get(token);
    return held && held.userId === userId && held.orgId === orgId ? held.job : undefined;
  }

  /** Runs a checked upload's import; false when it is not waiting (started already, or gone). */
  start(
    token: string,
    userId: string,
    orgId: string,
    run: (
      job: { sources: readonly ImportSource[]; folderId?: string },
      progress: (done: number, total: number) => void,
    ) => Promise<ImportReport>,
  ): boolean {
    const held = this.#held.get(token);
    if (!held || held.userId !== userId || held.orgId !== orgId || held.job.state !== 'checked') return false;
    const checked = held.job;
    const running = { state: 'running' as const, done: 0, total: checked.sources.length };
    held.job = running;
    const finish = (job: ImportJob) => {
      held.job = job;
      held.expires = Date.now() + KEEP_MS;
    };
    // Not awaited: the request that starts it answers at once; the outcome lands in the held job.
    void run(checked, (done, total) => Object.assign(running, { done, total })).then(
      (report) => finish({ state: 'done', report }),
      (error: unknown) => finish({ state: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
    return true;
  }

  #sweep(): void {
    const now = Date.now();
    for (const [token, held] of this.#held)
      if (held.expires < now && held.job.state !== 'running') this.#held.delete(token);
  }
}
