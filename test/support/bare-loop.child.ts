import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { watchLoop } from './watch-loop.js';

/**
 * A bare Node process: a 10 ms timer watched as the test watches the server's; every 30 ms, a
 * 4 KiB file written and removed in `dir` (what /healthz did to the repositories' disk), so that
 * its event loop and its thread pool meet the same disk and CPUs; and every 10 ms a request's
 * worth of JSON made, written and read back, so that its heap is collected and its code
 * optimized by V8's helper threads as a server's is. The loop hands work to those threads and
 * to the pool through locks and condition variables, and when they are starved of a CPU the
 * loop waits for them (glibc before 2.41 makes pthread_cond_signal wait for waiters woken
 * earlier to run): that is the machine's doing, in any Node process. Prints what it saw when
 * its standard input closes.
 */
const dir = process.argv[2]!;
const loop = watchLoop();
let stopped = false;
let writes = 0;
const traffic = (async () => {
  while (!stopped) {
    const file = path.join(dir, `.bare-loop-${writes++}`);
    await writeFile(file, Buffer.alloc(4096));
    await rm(file, { force: true });
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
})();
/** About what an MCP tool call parses and answers: a few hundred rows of short strings. */
const requestSized = (seed: number) =>
  Array.from({ length: 300 }, (_, i) => ({
    id: `a-${seed}-${i}`,
    title: `Title ${i} of ${seed}`,
    tags: [i % 7, i % 11],
  }));
let requests = 0;
const serving = setInterval(() => {
  const parsed = JSON.parse(JSON.stringify(requestSized(requests++))) as { title: string }[];
  if (parsed.length !== 300) throw new Error('JSON round trip lost rows');
}, 10);
process.stdin
  .on('end', () => {
    stopped = true;
    clearInterval(serving);
    void traffic.then(() => process.stdout.write(JSON.stringify({ ...loop.stop(), writes })));
  })
  .resume();
