import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoopWatch } from './watch-loop.js';

export type BareLoopSeen = ReturnType<LoopWatch['stop']> & { writes: number };

/**
 * The machine's own share of a stall: a bare Node process (bare-loop.child.ts) beside the server
 * under test, its event loop watched the same way while it writes small files to the same disk.
 * Whatever holds its loop (the CPUs taken by other processes, a thread of its pool waiting on the
 * disk while it holds a lock the loop needs) is the machine's doing, not the server's code.
 */
export function startBareLoop(dir: string): { stop(): Promise<BareLoopSeen> } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./bare-loop.child.ts', import.meta.url)), dir],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve, reject) => child.once('exit', resolve).once('error', reject));
  // Its failure is reported by stop(), not as unhandled in between.
  exited.catch(() => undefined);
  return {
    async stop() {
      child.stdin.end();
      const code = await exited;
      if (code !== 0) throw new Error(`the bare loop process exited with ${code}`);
      return JSON.parse(output) as BareLoopSeen;
    },
  };
}
