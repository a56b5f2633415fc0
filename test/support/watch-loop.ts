import { readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

/** Linux's account of the main thread: nanoseconds on a CPU, then waiting on a run queue for one. */
const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

function runQueueWaitMs(): number | undefined {
  if (!isMainThread) return undefined;
  try {
    return Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[1]) / 1e6;
  } catch {
    return undefined;
  }
}

export interface LoopWatch {
  /** The longest stall, and the longest part of one that waiting for a CPU does not explain. */
  stop(): { longestStallMs: number; longestHeldMs: number; cpuWaitKnown: boolean };
}

/**
 * How late a 10 ms timer fires, tick by tick: a stall of the event loop. On a machine whose
 * cores are busy with other processes, much of a stall is the thread waiting for a CPU, which
 * no code of ours causes or can avoid; the run-queue wait Linux counts for the thread in the
 * same interval is taken off, leaving the time the loop was held by our own work or blocked in
 * the kernel (a write or fsync on a busy disk). Where the count is missing, nothing is taken off.
 */
export function watchLoop(intervalMs = 10): LoopWatch {
  const cpuWaitKnown = runQueueWaitMs() !== undefined;
  let last = performance.now();
  let lastWait = runQueueWaitMs() ?? 0;
  let longestStallMs = 0;
  let longestHeldMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const wait = runQueueWaitMs() ?? 0;
    const late = now - last - intervalMs;
    longestStallMs = Math.max(longestStallMs, late);
    longestHeldMs = Math.max(longestHeldMs, late - (wait - lastWait));
    last = now;
    lastWait = wait;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return { longestStallMs: Math.round(longestStallMs), longestHeldMs: Math.round(longestHeldMs), cpuWaitKnown };
    },
  };
}
