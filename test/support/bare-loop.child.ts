import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { watchLoop } from './watch-loop.js';

/**
 * A bare Node process: a 10 ms timer watched as the test watches the server's, and, every 30 ms,
 * a 4 KiB file written and removed in `dir` (what /healthz does to the repositories' disk), so that
 * its event loop and its thread pool meet the same disk and CPUs. Prints what it saw when its
 * standard input closes.
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
process.stdin
  .on('end', () => {
    stopped = true;
    void traffic.then(() => process.stdout.write(JSON.stringify({ ...loop.stop(), writes })));
  })
  .resume();
