/** Summaries over rounds, and ratios printed with their baseline's own spread. */
export const QUICK = process.env.SPECBASE_BENCH_QUICK === '1';

export const sorted = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);

/** Nearest-rank percentile, p in [0, 1]. */
export function percentile(values: readonly number[], p: number): number {
  const s = sorted(values);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? 0;
}

export const median = (values: readonly number[]): number => percentile(values, 0.5);

export const fmt = (value: number, digits = 1): string => value.toFixed(digits);

/** "min-max" of the rounds, which is what a reader needs to judge a ratio against it. */
export const spread = (values: readonly number[], digits = 1): string => {
  const s = sorted(values);
  return `${fmt(s[0] ?? 0, digits)}-${fmt(s[s.length - 1] ?? 0, digits)}`;
};

/** Each round's measurement to the same round's baseline. */
export const pairedRatios = (measured: readonly number[], baseline: readonly number[]): number[] =>
  measured.map((value, round) => value / (baseline[round] ?? Number.NaN));

/**
 * One line: the measured median, the baseline's median with its min-max over rounds, and their
 * ratio. By default the ratio of medians; `paired` where each round measured both, seconds
 * apart: the median of the per-round ratios, which the machine's drift between rounds does not
 * move, with their min-max and the ratio of medians beside it.
 */
export function ratioLine(
  label: string,
  unit: string,
  measured: readonly number[],
  baseline: readonly number[],
  target?: string,
  ratio: 'of medians' | 'paired' = 'of medians',
): string {
  const ofMedians = median(measured) / median(baseline);
  const rounds = pairedRatios(measured, baseline);
  const shown =
    ratio === 'paired'
      ? `${median(rounds).toFixed(2)}x, median of rounds (rounds ${spread(rounds, 2)}; ratio of medians ${ofMedians.toFixed(2)}x)`
      : `${ofMedians.toFixed(2)}x`;
  return (
    `  ${label.padEnd(34)} ${fmt(median(measured)).padStart(9)} ${unit} (rounds ${spread(measured)})` +
    `   baseline ${fmt(median(baseline))} (rounds ${spread(baseline)})   ratio ${shown}${target ? ` (target ${target})` : ''}`
  );
}

/** SPECBASE_BENCH_SIZES=10000,100000 overrides a suite's organization sizes (quick mode: its small ones). */
export function benchSizes(full: readonly number[], quick: readonly number[]): number[] {
  const override = process.env.SPECBASE_BENCH_SIZES?.split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  return override?.length ? override : [...(QUICK ? quick : full)];
}
