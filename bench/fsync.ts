/**
 * The cost of durable acknowledgements (issue 9 item 4): the same one-line edits through two
 * GitStores over copies of one organization, one with `fsync: true` and one with
 * `fsync: false`, alternating. fsync calls are counted at the fs layer, so a store that
 * ignores the option is reported as such instead of as "free".
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { pathToFileURL } from 'node:url';
import { interleavedEdits, openEditTarget } from './support/store-edits.js';
import { benchSizes, fmt, median, percentile, QUICK } from './support/stats.js';

const [SIZE] = benchSizes([10_000], [1_000]);
const WARMUP = 3;
const EDITS = QUICK ? 10 : 40;

/** Counts fsync and fdatasync calls of every kind (callback, sync, promise FileHandle) while installed. */
async function countFsyncs(): Promise<{ count(): number; restore(): void }> {
  let calls = 0;
  const handle = await fs.promises.open(process.execPath, 'r');
  const fileHandleProto = Object.getPrototypeOf(handle) as Record<string, (...args: unknown[]) => unknown>;
  await handle.close();
  const patched: [Record<string, unknown>, string, unknown][] = [];
  const wrap = (target: Record<string, unknown>, name: string) => {
    const original = target[name] as (...args: unknown[]) => unknown;
    if (typeof original !== 'function') return;
    patched.push([target, name, original]);
    target[name] = function (this: unknown, ...args: unknown[]) {
      calls += 1;
      return original.apply(this, args);
    };
  };
  for (const name of ['fsync', 'fdatasync', 'fsyncSync', 'fdatasyncSync'])
    wrap(fs as unknown as Record<string, unknown>, name);
  for (const name of ['sync', 'datasync']) wrap(fileHandleProto, name);
  syncBuiltinESMExports();
  return {
    count: () => calls,
    restore() {
      for (const [target, name, original] of patched) target[name] = original;
      syncBuiltinESMExports();
    },
  };
}

export async function runFsyncBench(): Promise<void> {
  const on = await openEditTarget(`fsync-on-${SIZE}`, SIZE!, { fsync: true });
  const off = await openEditTarget(`fsync-off-${SIZE}`, SIZE!, { fsync: false });
  const counter = await countFsyncs();
  try {
    await interleavedEdits([on, off], WARMUP);
    const fsyncs = [0, 0];
    const samples: number[][] = [[], []];
    for (let i = 0; i < EDITS; i++) {
      for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const before = counter.count();
        samples[k]!.push(await [on, off][k]!.edit());
        fsyncs[k]! += counter.count() - before;
      }
    }
    const row = (label: string, ms: number[], n: number) =>
      `  ${label.padEnd(12)} p50 ${fmt(median(ms), 2)} ms  p95 ${fmt(percentile(ms, 0.95), 2)} ms   ${fmt(n / EDITS, 1)} fsync calls per edit`;
    const lines = [
      `Edit latency with fsync on vs off, ${SIZE} artifacts, ${EDITS} edits each, alternating`,
      row('fsync on', samples[0]!, fsyncs[0]!),
      row('fsync off', samples[1]!, fsyncs[1]!),
    ];
    if (fsyncs[0] === fsyncs[1]) {
      lines.push(
        '  skipped: the store made the same number of fsync calls with the option on and off, so it does not read `fsync` yet',
      );
    } else {
      lines.push(
        `  fsync cost: p50 on/off ${(median(samples[0]!) / median(samples[1]!)).toFixed(2)}x, +${fmt(median(samples[0]!) - median(samples[1]!), 2)} ms per edit`,
      );
    }
    console.log(lines.join('\n'));
  } finally {
    counter.restore();
    await Promise.all([on.store.close(), off.store.close()]);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runFsyncBench();
}
