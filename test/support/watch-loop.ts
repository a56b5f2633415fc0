import { readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

/** Linux's account of the main thread: nanoseconds on a CPU, then waiting on a run queue for one. */
const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

interface ThreadTimes {
  readonly onCpuMs: number;
  readonly runQueueMs: number;
}

function threadTimes(): ThreadTimes | undefined {
  if (!isMainThread) return undefined;
  try {
    const [onCpu, runQueue] = readFileSync(SCHEDSTAT, 'utf8').split(' ');
    return { onCpuMs: Number(onCpu) / 1e6, runQueueMs: Number(runQueue) / 1e6 };
  } catch {
    return undefined;
  }
}

/** Where the longest held stall went: running our code, or off the CPU (blocked in the kernel, or asleep on a lock). */
export interface HeldStall {
  readonly heldMs: number;
  readonly onCpuMs: number;
  readonly offCpuMs: number;
}

export interface LoopWatch {
  /** The longest stall, and the longest part of one that waiting for a CPU does not explain. */
  stop(): { longestStallMs: number; cpuWaitKnown: boolean; longestHeld: HeldStall };
}

/**
 * How late a 10 ms timer fires, tick by tick: a stall of the event loop. On a machine whose
 * cores are busy with other processes, much of a stall is the thread waiting for a CPU, which
 * no code of ours causes or can avoid; the run-queue wait Linux counts for the thread in the
 * same interval is taken off, leaving the time the loop was held by our own work or blocked in
 * the kernel (a write or fsync on a busy disk). Where the count is missing, nothing is taken off.
 * The longest held stall is split into time on a CPU and time off it, which tells our own work
 * from waiting (a disk, a lock another thread holds).
 */
export function watchLoop(intervalMs = 10): LoopWatch {
  const cpuWaitKnown = threadTimes() !== undefined;
  let last = performance.now();
  let lastTimes = threadTimes();
  let longestStallMs = 0;
  let longestHeld: HeldStall = { heldMs: 0, onCpuMs: 0, offCpuMs: 0 };
  const timer = setInterval(() => {
    const now = performance.now();
    const times = threadTimes();
    const late = now - last - intervalMs;
    const onCpuMs = times && lastTimes ? times.onCpuMs - lastTimes.onCpuMs : 0;
    const runQueueMs = times && lastTimes ? times.runQueueMs - lastTimes.runQueueMs : 0;
    longestStallMs = Math.max(longestStallMs, late);
    const heldMs = late - runQueueMs;
    if (heldMs > longestHeld.heldMs) {
      longestHeld = { heldMs, onCpuMs, offCpuMs: now - last - onCpuMs - runQueueMs };
    }
    last = now;
    lastTimes = times;
  }, intervalMs);
  const round = (held: HeldStall): HeldStall => ({
    heldMs: Math.round(held.heldMs),
    onCpuMs: Math.round(held.onCpuMs),
    offCpuMs: Math.round(held.offCpuMs),
  });
  return {
    stop() {
      clearInterval(timer);
      return {
        longestStallMs: Math.round(longestStallMs),
        cpuWaitKnown,
        longestHeld: round(longestHeld),
      };
    },
  };
}
