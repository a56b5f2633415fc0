import { spawn, type ChildProcess } from 'node:child_process';
import { startReportingChild } from './reporting-child.js';
import { rm } from 'node:fs/promises';

export interface DiskFlood {
  /** Stops the writer and the probe, removes their files; what the probe saw meanwhile. */
  stop(): Promise<{ rounds: number; slowestFsyncMs: number }>;
}

/** Pause between the probe's small flushed writes. */
const PROBE_EVERY_MS = 50;

/**
 * The probe, in a process of its own: its flushes wait hundreds of milliseconds on the flooded
 * disk, and in the test's process they would hold threads of the pool the server under test
 * uses for its own file operations, which no server in production shares with a test's probe.
 * It prints the slowest flush when its standard input closes.
 */
const PROBE = `
import { open } from 'node:fs/promises';
const handle = await open(process.argv[1], 'a');
const block = Buffer.alloc(4096, 1);
let stopped = false;
let slowest = 0;
process.stdin.on('end', () => (stopped = true)).resume();
while (!stopped) {
  const started = performance.now();
  await handle.write(block);
  await handle.sync();
  slowest = Math.max(slowest, performance.now() - started);
  await new Promise((resolve) => setTimeout(resolve, ${PROBE_EVERY_MS}));
}
await handle.close();
process.stdout.write(JSON.stringify({ slowest }));
`;

function startProbe(file: string): { stop(): Promise<number> } {
  const probe = startReportingChild<{ slowest: number }>('the disk probe', ['--input-type=module', '-e', PROBE, file]);
  return { stop: async () => (await probe.stop()).slowest };
}

/**
 * Another process writing to the disk as fast as it can: `dd` writes `mib` MiB of zeros to
 * `file` and flushes them (conv=fsync), again and again until stopped or `rounds` are done,
 * so the file never holds more than `mib` MiB. Buffered writes flushed in bulk press hardest:
 * beside them a 4 KiB fsync waited up to 300-400 ms on the machine this was written on, beside
 * O_DIRECT writes 50-100 ms. Beside it, a probe process appends 4 KiB to `${file}.probe` and
 * flushes it every 50 ms, to tell how hard the disk was pressed.
 */
export function floodDisk(file: string, { mib = 1024, rounds = 30 } = {}): DiskFlood {
  let stopped = false;
  let dd: ChildProcess | undefined;
  let done = 0;
  const writer = (async () => {
    while (!stopped && done < rounds) {
      dd = spawn('dd', ['if=/dev/zero', `of=${file}`, 'bs=1M', `count=${mib}`, 'conv=fsync'], { stdio: 'ignore' });
      const exited = await new Promise<number | null>((resolve, reject) =>
        dd!.once('exit', resolve).once('error', reject),
      );
      if (exited !== 0 && !stopped) throw new Error(`dd exited with ${exited}`);
      done += 1;
    }
  })();
  // Its failure is reported by stop(), not as unhandled in between.
  writer.catch(() => undefined);
  const probeFile = `${file}.probe`;
  const probe = startProbe(probeFile);

  return {
    async stop() {
      stopped = true;
      dd?.kill('SIGKILL');
      try {
        const [slowestFsyncMs] = await Promise.all([probe.stop(), writer]);
        return { rounds: done, slowestFsyncMs: Math.round(slowestFsyncMs) };
      } finally {
        await Promise.all([rm(file, { force: true }), rm(probeFile, { force: true })]);
      }
    },
  };
}
