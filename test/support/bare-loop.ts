import { fileURLToPath } from 'node:url';
import { startReportingChild } from './reporting-child.js';
import type { LoopWatch } from './watch-loop.js';

export type BareLoopSeen = ReturnType<LoopWatch['stop']> & { writes: number };

/**
 * The machine's own share of a stall: a bare Node process (bare-loop.child.ts) beside the server
 * under test, its event loop watched the same way while it writes small files to the same disk.
 * Whatever holds its loop (the CPUs taken by other processes, a thread of its pool waiting on the
 * disk while it holds a lock the loop needs) is the machine's doing, not the server's code.
 */
export function startBareLoop(dir: string): { stop(): Promise<BareLoopSeen> } {
  const child = fileURLToPath(new URL('./bare-loop.child.ts', import.meta.url));
  return startReportingChild<BareLoopSeen>('the bare loop process', ['--import', 'tsx', child, dir]);
}
