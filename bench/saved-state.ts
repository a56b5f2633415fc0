/**
 * Saved store state (issue 10): its size on disk as commits accumulate, and the longest
 * event-loop stall while it is written. Edits go through GitStore in this process in steps,
 * with perf_hooks.monitorEventLoopDelay running while they commit and while the store's own
 * delayed saves (whatever form they take in the organization's cache directory) land after
 * them. Targets: no stall over 20 ms; size grows with the number of artifacts, not with commits
 * times artifacts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { openEditTarget } from './support/store-edits.js';
import { benchSizes, fmt, QUICK } from './support/stats.js';

const [SIZE] = benchSizes([10_000], [1_000]);
const STEPS = QUICK ? 3 : 4;
const EDITS_PER_STEP = QUICK ? 20 : 100;
/** Saves due after a write (the store's own delay) land within this; a quiet folder ends the wait early. */
const SETTLE_MS = 4_000;
const QUIET_MS = 2_500;
/** A state built from Git is first saved a few seconds after opening; this long at most is waited for it. */
const FIRST_SAVE_MS = 15_000;
const CTX = { author: { name: 'Bench User', email: 'bench@example.com' }, client: 'bench' };

/** A SQLite write-ahead log and its index: they grow until a checkpoint folds them back, so they are counted apart. */
const JOURNAL = /-(wal|shm|journal)$/;

/** Size (journals apart) and newest modification time of the saved state; zeros when there is none. */
function stateStamp(dir: string): { bytes: number; journalBytes: number; mtimeMs: number } {
  const stamp = { bytes: 0, journalBytes: 0, mtimeMs: 0 };
  if (!fs.existsSync(dir)) return stamp;
  const visit = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) {
        visit(full);
        continue;
      }
      const stat = fs.statSync(full);
      stamp.mtimeMs = Math.max(stamp.mtimeMs, stat.mtimeMs);
      if (JOURNAL.test(entry.name)) stamp.journalBytes += stat.size;
      else stamp.bytes += stat.size;
    }
  };
  visit(dir);
  return stamp;
}

/**
 * Polls the saved state every 100 ms until `settled` (given the last stamp and the milliseconds
 * since the wait began and since the state last changed) says it is done, or `maxMs` passes.
 */
async function settledStamp(
  dir: string,
  maxMs: number,
  settled: (stamp: ReturnType<typeof stateStamp>, sinceStartMs: number, sinceChangeMs: number) => boolean,
): Promise<ReturnType<typeof stateStamp>> {
  const start = performance.now();
  let stamp = stateStamp(dir);
  let changedAt = start;
  while (performance.now() - start < maxMs) {
    await sleep(100);
    const next = stateStamp(dir);
    const now = performance.now();
    if (next.mtimeMs !== stamp.mtimeMs || next.bytes !== stamp.bytes) {
      stamp = next;
      changedAt = now;
    } else if (settled(stamp, now - start, now - changedAt)) break;
  }
  return stamp;
}

/** The saved state once its first save is written whole: present, then unchanged for a second. */
const firstSave = (dir: string) =>
  settledStamp(dir, FIRST_SAVE_MS, (stamp, _sinceStart, sinceChange) => stamp.bytes > 0 && sinceChange > 1_000);

export async function runSavedStateBench(): Promise<void> {
  const target = await openEditTarget(`saved-state-${SIZE}`, SIZE!);
  const { store, manifest: m } = target;
  const stateDir = store.cacheDir(m.orgId);
  const ids = (await store.catalog(m.orgId))
    .filter((a) => a.type === 'acceptance_criterion')
    .slice(0, 200)
    .map((a) => a.id);
  const rows: string[] = [];
  let commits = 0;
  try {
    const size = (st: { bytes: number; journalBytes: number }) =>
      `${fmt((st.bytes + st.journalBytes) / 1024, 0).padStart(7)} KB (journal ${fmt(st.journalBytes / 1024, 0)} KB)`;
    // The first save writes every row: the largest there is.
    const first = monitorEventLoopDelay({ resolution: 1 });
    first.enable();
    const openedStamp = await firstSave(stateDir);
    first.disable();
    const opened = openedStamp.bytes + openedStamp.journalBytes;
    rows.push(
      `  after opening      ${size(openedStamp)}   longest stall while it was first saved ${fmt(first.max / 1e6, 1)} ms (target <= 20 ms)`,
    );
    for (let step = 1; step <= STEPS; step++) {
      // A store may save as it commits or a little later: the stall is looked for in both windows.
      const during = monitorEventLoopDelay({ resolution: 1 });
      during.enable();
      for (let i = 0; i < EDITS_PER_STEP; i++) {
        const id = ids[commits % ids.length]!;
        const { body } = await store.read(m.orgId, id);
        await store.update(
          m.orgId,
          id,
          { body: `${body.trimEnd()}\n- saved-state edit ${commits}\n`, verb: 'edit' },
          CTX,
        );
        commits += 1;
      }
      during.disable();
      const after = monitorEventLoopDelay({ resolution: 1 });
      after.enable();
      const settleStart = performance.now();
      const stamp = await settledStamp(stateDir, SETTLE_MS, (_stamp, sinceStart) => sinceStart > QUIET_MS);
      after.disable();
      // The same window with nothing to save: what this shared machine adds to any stall.
      const idle = monitorEventLoopDelay({ resolution: 1 });
      idle.enable();
      await sleep(performance.now() - settleStart);
      idle.disable();
      rows.push(
        `  after ${String(commits).padStart(4)} commits ${size(stamp)}   longest stall: while committing ${fmt(during.max / 1e6, 1)} ms, ` +
          `after (delayed saves) ${fmt(after.max / 1e6, 1)} ms (target <= 20 ms), idle ${fmt(idle.max / 1e6, 1)} ms`,
      );
    }
    const lastStamp = stateStamp(stateDir);
    const last = lastStamp.bytes + lastStamp.journalBytes;
    console.log(
      [
        `Saved state of an organization of ${SIZE} artifacts (<gitdir>/specbase/), ${EDITS_PER_STEP} edits per step`,
        ...rows,
        `  ${fmt(opened / 1024 / SIZE!, 2)} KB per artifact at opening; ${fmt((last - opened) / commits, 0)} bytes more per commit since ` +
          '(a SQLite journal is reused after each checkpoint, so its growth is bytes written per commit, not lasting size)',
      ].join('\n'),
    );
  } finally {
    await store.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runSavedStateBench();
}
