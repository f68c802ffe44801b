// How the slowest requests of an open loop are spread over time (bench/support/http-load.ts).

/** A new stretch begins when a slow request was scheduled this long after the one before it. */
export const STRETCH_GAP_MS = 50;

export interface TailStretches {
  /** How many separate stretches of time those requests were scheduled in. */
  stretches: number;
  /** The longest stretch, from its first scheduled start to its last, in ms. */
  longestMs: number;
}

/**
 * Groups the requests at or above the p99 by when they were scheduled. A p99 made of a few
 * stretches is a few stalls, each delaying every request behind it (a collection, another
 * process taking the core); one made of many single requests is spread over the run. Each
 * sample is [scheduled start in ms, latency in ms], in any order.
 */
export function tailStretches(samples: ReadonlyArray<readonly [number, number]>, p99: number): TailStretches {
  const starts = samples
    .filter(([, latency]) => latency >= p99)
    .map(([start]) => start)
    .sort((a, b) => a - b);
  let stretches = 0;
  let longestMs = 0;
  let first = Number.NaN;
  let last = Number.NaN;
  for (const start of starts) {
    if (stretches === 0 || start - last > STRETCH_GAP_MS) {
      stretches++;
      first = start;
    }
    last = start;
    longestMs = Math.max(longestMs, last - first);
  }
  return { stretches, longestMs };
}
