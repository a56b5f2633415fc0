/**
 * Counts MCP requests and tool calls under way, so that shutdown can let them finish (their
 * commits and their answers) before it closes the sessions that would carry those answers.
 */
export class InFlight {
  private running = 0;
  private waiters: (() => void)[] = [];

  track<T>(work: () => Promise<T>): Promise<T> {
    this.running++;
    return work().finally(() => {
      if (--this.running === 0) for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Resolves when nothing is running, or after `limitMs`, whichever comes first. */
  settled(limitMs: number): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, limitMs);
      timer.unref();
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
