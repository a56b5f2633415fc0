import { rm } from 'node:fs/promises';
import { startReportingChild } from './reporting-child.js';

export interface DiskFlood {
  /** Stops the writer and the probe, removes their files; what the probe saw meanwhile. */
  stop(): Promise<{ rounds: number; slowestFsyncMs: number }>;
}

/** Pause between the probe's small flushed writes. */
const PROBE_EVERY_MS = 50;

/**
 * The flood and its probe, in a process of their own: started from the test's process, each
 * `dd` would be spawned on the event loop under measurement (a spawn waits for the child's exec),
 * and the probe's flushes, waiting hundreds of milliseconds on the disk, would hold threads of
 * the pool the server under test uses, which no server in production shares with a test.
 * It runs at the lowest CPU priority, as does its dd (which inherits it): what it presses is the
 * disk, and the copying into the page cache would otherwise take CPU time from the server's
 * threads. That matters beyond the CPU share: on glibc before 2.41, the event loop's
 * pthread_cond_signal, handing work to the thread pool, waits until the pool threads woken
 * before have run (seen with perf: the loop asleep in pthread_cond_signal for 30-60 ms, woken
 * by a pool thread's __condvar_dec_grefs), so every CPU-starved pool thread stalls the loop.
 * Arguments: the file, MiB per round, rounds at most. Reports when its standard input closes.
 */
const FLOOD = `
import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import { setPriority } from 'node:os';
setPriority(19);
const [file, mib, rounds] = process.argv.slice(1);
let stopped = false;
let done = 0;
let dd;
process.stdin.on('end', () => { stopped = true; dd?.kill('SIGKILL'); }).resume();
const writer = (async () => {
  while (!stopped && done < Number(rounds)) {
    dd = spawn('dd', ['if=/dev/zero', 'of=' + file, 'bs=1M', 'count=' + mib, 'conv=fsync'], { stdio: 'ignore' });
    const code = await new Promise((resolve, reject) => dd.once('exit', resolve).once('error', reject));
    if (code !== 0 && !stopped) throw new Error('dd exited with ' + code);
    done += 1;
  }
})();
const handle = await open(file + '.probe', 'a');
const block = Buffer.alloc(4096, 1);
let slowest = 0;
while (!stopped) {
  const started = performance.now();
  await handle.write(block);
  await handle.sync();
  slowest = Math.max(slowest, performance.now() - started);
  await new Promise((resolve) => setTimeout(resolve, ${PROBE_EVERY_MS}));
}
await handle.close();
await writer;
process.stdout.write(JSON.stringify({ rounds: done, slowestFsyncMs: Math.round(slowest) }));
`;

/**
 * Another process writing to the disk as fast as it can: `dd` writes `mib` MiB of zeros to
 * `file` and flushes them (conv=fsync), again and again until stopped or `rounds` are done,
 * so the file never holds more than `mib` MiB. Buffered writes flushed in bulk press hardest:
 * beside them a 4 KiB fsync waited up to 300-400 ms on the machine this was written on, beside
 * O_DIRECT writes 50-100 ms. Beside it, a probe appends 4 KiB to `${file}.probe` and flushes it
 * every 50 ms, to tell how hard the disk was pressed.
 */
export function floodDisk(file: string, { mib = 1024, rounds = 30 } = {}): DiskFlood {
  const flood = startReportingChild<{ rounds: number; slowestFsyncMs: number }>('the disk flood', [
    '--input-type=module',
    '-e',
    FLOOD,
    file,
    String(mib),
    String(rounds),
  ]);
  return {
    async stop() {
      try {
        return await flood.stop();
      } finally {
        await Promise.all([rm(file, { force: true }), rm(`${file}.probe`, { force: true })]);
      }
    },
  };
}
