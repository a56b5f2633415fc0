import { readdirSync, readFileSync } from 'node:fs';

/** CPU time a process has used so far, its main thread apart from all its other threads (Linux /proc). */
export interface ProcessCpu {
  readonly mainMs: number;
  readonly otherThreadsMs: number;
}

const CLOCK_TICK_MS = 10;

function threadMs(pid: number, tid: string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // Fields after the command name, which may itself hold spaces: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
  } catch {
    return 0; // the thread ended between listing and reading
  }
}

export function processCpu(pid: number): ProcessCpu {
  let otherThreadsMs = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) if (tid !== String(pid)) otherThreadsMs += threadMs(pid, tid);
  return { mainMs: threadMs(pid, String(pid)), otherThreadsMs };
}

/** CPU per call between two readings, in milliseconds. */
export const cpuPerCall = (before: ProcessCpu, after: ProcessCpu, calls: number): ProcessCpu => ({
  mainMs: (after.mainMs - before.mainMs) / Math.max(1, calls),
  otherThreadsMs: (after.otherThreadsMs - before.otherThreadsMs) / Math.max(1, calls),
});
