import { BlobBatch } from '../git/index.js';

/** Quiet time after which a repository's reader stops its git process. */
const IDLE_MS = 30_000;

/** Reads objects by name (`<commit>:<path>`, or an id) through native git. */
export interface ObjectReader {
  read(name: string): Promise<Buffer>;
}

/**
 * One `git cat-file --batch` per repository for reads of older versions, started on first use
 * and stopped after a quiet spell. Starting git forks this process, which held the event loop
 * for about 20 ms in a large one, and a change page reads two versions at once.
 */
export class VersionReaders {
  readonly #batches = new Map<string, { batch: BlobBatch; idle: NodeJS.Timeout }>();
  #closed = false;

  constructor(private readonly idleMs = IDLE_MS) {}

  of(gitdir: string): ObjectReader {
    return {
      read: (name) =>
        this.#closed
          ? Promise.reject(new Error('the store is closed: no more reads of older versions'))
          : this.#batch(gitdir).read(name),
    };
  }

  /** Stops every git process and starts no more (the store is closing). */
  close(): void {
    this.#closed = true;
    for (const gitdir of [...this.#batches.keys()]) this.#stop(gitdir);
  }

  /** Stops the repository's git process now (its organization was closed); the next read starts another. */
  stop(gitdir: string): void {
    this.#stop(gitdir);
  }

  #batch(gitdir: string): BlobBatch {
    const running = this.#batches.get(gitdir);
    if (running?.batch.usable) {
      running.idle.refresh();
      return running.batch;
    }
    // A git that stopped or failed (killed, say) is replaced: the reads it failed reported it.
    if (running) this.#stop(gitdir);
    const batch = new BlobBatch(gitdir);
    const idle = setTimeout(() => this.#stop(gitdir), this.idleMs);
    idle.unref();
    this.#batches.set(gitdir, { batch, idle });
    return batch;
  }

  #stop(gitdir: string): void {
    const running = this.#batches.get(gitdir);
    if (!running) return;
    clearTimeout(running.idle);
    // git answers what it was asked before it sees the end of its input, then exits.
    running.batch.close();
    this.#batches.delete(gitdir);
  }
}
