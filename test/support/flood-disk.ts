import { spawn, type ChildProcess } from 'node:child_process';
import { open, rm } from 'node:fs/promises';

export interface DiskFlood {
  /** Stops the writer, removes its file and the probe's; what the probe saw meanwhile. */
  stop(): Promise<{ rounds: number; slowestFsyncMs: number }>;
}

/** Pause between the probe's small flushed writes. */
const PROBE_EVERY_MS = 50;

/**
 * Another process writing to the disk as fast as it can: `dd` writes `mib` MiB of zeros to
 * `file` and flushes them (conv=fsync), again and again until stopped or `rounds` are done,
 * so the file never holds more than `mib` MiB. Buffered writes flushed in bulk press hardest:
 * beside them a 4 KiB fsync waited up to 300-400 ms on the machine this was written on, beside
 * O_DIRECT writes 50-100 ms. Beside it, a probe appends 4 KiB to `${file}.probe` and flushes
 * it every 50 ms, off the event loop (fs.promises), to tell how hard the disk was pressed.
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

  let slowestFsyncMs = 0;
  const probeFile = `${file}.probe`;
  const probe = (async () => {
    const handle = await open(probeFile, 'a');
    try {
      const block = Buffer.alloc(4096, 1);
      while (!stopped) {
        const started = performance.now();
        await handle.write(block);
        await handle.sync();
        slowestFsyncMs = Math.max(slowestFsyncMs, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
      }
    } finally {
      await handle.close();
    }
  })();

  // Their failures are reported by stop(), not as unhandled in between.
  writer.catch(() => undefined);
  probe.catch(() => undefined);

  return {
    async stop() {
      stopped = true;
      dd?.kill('SIGKILL');
      try {
        await Promise.all([writer, probe]);
      } finally {
        await Promise.all([rm(file, { force: true }), rm(probeFile, { force: true })]);
      }
      return { rounds: done, slowestFsyncMs: Math.round(slowestFsyncMs) };
    },
  };
}
