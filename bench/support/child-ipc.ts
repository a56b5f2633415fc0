import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** What a server process reports of its own event loop: delays in ms, as the histogram saw them. */
export interface LoopDelay {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

export type ProbeRequest = { kind: 'loop-start' } | { kind: 'loop-read' } | { kind: 'stop' };

/**
 * The runner's side channel into a server process: event-loop delay measured inside it
 * (perf_hooks.monitorEventLoopDelay at 10 ms resolution) and a graceful stop.
 */
export function serveProbeRequests(stop: () => Promise<void>): void {
  let histogram: IntervalHistogram | undefined;
  exitWithParent();
  process.on('message', (message: ProbeRequest) => {
    if (message.kind === 'loop-start') {
      histogram?.disable();
      histogram = monitorEventLoopDelay({ resolution: 10 });
      histogram.enable();
      process.send!({ kind: 'loop-started' });
    } else if (message.kind === 'loop-read') {
      const h = histogram;
      const delay: LoopDelay = h
        ? { p50Ms: h.percentile(50) / 1e6, p99Ms: h.percentile(99) / 1e6, maxMs: h.max / 1e6 }
        : { p50Ms: 0, p99Ms: 0, maxMs: 0 };
      process.send!({ kind: 'loop', delay });
    } else if (message.kind === 'stop') {
      void stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    }
  });
}

/** A benchmark child never outlives the runner that forked it (a killed or crashed run). */
export function exitWithParent(): void {
  process.on('disconnect', () => process.exit(0));
}
