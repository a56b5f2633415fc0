import type { ArtifactRecord } from '../types.js';

/**
 * Records go to the taker this many at a time (or fewer once the build ends): each batch is a
 * message to the search index's thread, and a batch per turn of the build (16 records) woke it
 * over 600 times at 10,000 artifacts.
 */
const HANDOVER_BATCH = 200;

/** An artifact as the build parsed it, with the blob it was read from. */
export interface FedRecord {
  readonly record: ArtifactRecord;
  readonly blob: string;
}

/**
 * The artifacts of `main` as a catalog build from the root parses them (see advance.ts), handed
 * to one taker while the build goes on, so that a search index is built from the same reads of
 * Git instead of waiting for the catalog and reading every body again. Records pass only while
 * someone takes them: what was parsed before, the taker reads afterwards from the catalog.
 */
export class ColdFeed {
  #buffer: FedRecord[] = [];
  #taking = false;
  #ended = false;
  #wake: (() => void) | undefined;

  /** Called by the build for each artifact whose file is the one at the target commit. */
  push(fed: FedRecord): void {
    if (!this.#taking || this.#ended) return;
    this.#buffer.push(fed);
    if (this.#buffer.length >= HANDOVER_BATCH) this.#wakeTaker();
  }

  /** The build is over (done or failed): nothing more will come. */
  end(): void {
    this.#ended = true;
    this.#buffer = this.#taking ? this.#buffer : [];
    this.#wakeTaker();
  }

  /**
   * The records as they come, in batches of at least HANDOVER_BATCH (the last may hold fewer),
   * until the build ends; undefined when another taker has them already, or the build is over.
   */
  take(): AsyncIterable<FedRecord[]> | undefined {
    if (this.#taking || this.#ended) return undefined;
    this.#taking = true;
    return this.#batches();
  }

  async *#batches(): AsyncIterable<FedRecord[]> {
    for (;;) {
      // The taker comes back for more a turn after each batch, when the build has parsed a few
      // records only: it waits for a whole batch, or the handover is one message per turn again.
      if (this.#buffer.length < HANDOVER_BATCH && !this.#ended)
        await new Promise<void>((resolve) => (this.#wake = resolve));
      const batch = this.#buffer;
      this.#buffer = [];
      if (batch.length > 0) yield batch;
      else if (this.#ended) return;
    }
  }

  #wakeTaker(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
