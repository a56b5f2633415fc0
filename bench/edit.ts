/**
 * One-line edit of one acceptance criterion through GitStore at 1,000 and at 100,000
 * artifacts, edits alternating between the two organizations in one process: p50 ratio and
 * bytes of new objects per edit (growth of objects/). Targets (issue 10): p50 at 100,000
 * within 1.5x of 1,000, under 20 KB of new objects per edit.
 */
import { pathToFileURL } from 'node:url';
import { interleavedEdits, objectBytes, openEditTarget } from './support/store-edits.js';
import { benchSizes, fmt, median, percentile, QUICK } from './support/stats.js';

/** The size every other is compared with: SPECBASE_BENCH_SIZES=10000 names only the size to compare. */
const BASELINE = 1_000;
const SIZES = benchSizes([BASELINE, 100_000], [BASELINE, 10_000]);
const [SMALL, LARGE] = SIZES.length === 1 ? [BASELINE, SIZES[0]!] : SIZES;
const WARMUP = 3;
const EDITS = QUICK ? 10 : 40;

export async function runEditBench(): Promise<void> {
  // Labels name each target's private data directory: distinct even when both sizes are the same.
  const small = await openEditTarget(`baseline-${SMALL}`, SMALL!);
  const large = await openEditTarget(`${LARGE}`, LARGE!);
  try {
    await interleavedEdits([small, large], WARMUP);
    const before = [objectBytes(small.gitdir), objectBytes(large.gitdir)];
    const [smallMs, largeMs] = await interleavedEdits([small, large], EDITS);
    const perEdit = [objectBytes(small.gitdir) - before[0]!, objectBytes(large.gitdir) - before[1]!].map(
      (b) => b / EDITS,
    );
    const row = (label: string, ms: number[], bytes: number, loadMs: number) =>
      `  ${label.padEnd(18)} p50 ${fmt(median(ms), 2)} ms  p95 ${fmt(percentile(ms, 0.95), 2)} ms   new objects ${fmt(bytes / 1024, 1)} KB/edit   (store load ${fmt(loadMs / 1000, 2)} s)`;
    console.log(
      [
        `One-line edit of one acceptance criterion, ${EDITS} edits per size after ${WARMUP} warm-up, alternating between sizes`,
        row(`${SMALL} artifacts`, smallMs!, perEdit[0]!, small.loadMs),
        row(`${LARGE} artifacts`, largeMs!, perEdit[1]!, large.loadMs),
        `  p50 ratio ${LARGE}/${SMALL}: ${(median(largeMs!) / median(smallMs!)).toFixed(2)}x (target <= 1.5x); new objects at ${LARGE}: ${fmt(perEdit[1]! / 1024, 1)} KB/edit (target < 20 KB)`,
      ].join('\n'),
    );
  } finally {
    await Promise.all([small.store.close(), large.store.close()]);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runEditBench();
}
