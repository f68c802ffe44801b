// Percentiles of latency samples, by nearest rank, for every bench.

/** The `p` quantile (0–1) of samples sorted ascending, by nearest rank; none: NaN. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

/**
 * The p99 of each `sliceMs` of an open loop, by scheduled start, in time order; a slice with no
 * successful request is left out. The loop's own p99 weighs a rare stall at its true frequency;
 * the slices show where one fell, as a shorter loop would have seen it
 * (docs/decisions.md#the-half-load-p99-is-taken-over-a-minute). Each sample is
 * [scheduled start in ms from the loop's start, latency in ms], in any order.
 */
export function sliceP99s(samples: ReadonlyArray<readonly [number, number]>, sliceMs: number): number[] {
  if (!(sliceMs > 0)) throw new RangeError(`a slice must be a positive number of ms, got ${sliceMs}`);
  const slices: number[][] = [];
  for (const [start, latency] of samples) (slices[Math.floor(start / sliceMs)] ??= []).push(latency);
  // A sparse array, in time order: flatMap skips the slices no request fell in.
  return slices.flatMap((latencies) => [
    percentile(
      latencies.sort((a, b) => a - b),
      0.99,
    ),
  ]);
}
