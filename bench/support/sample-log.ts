// The samples of an open loop (./http-load.ts), kept where the generator's garbage collector does
// not have to look at them.

/**
 * Each success's [scheduled start, latency], in ms, written into two arrays sized for the whole
 * loop. Kept as a pair of objects per sample, a minute's samples at 6,000 requests a second
 * filled the generator's old generation, whose marking then paused the generator for up to 11 ms
 * at a time; each pause delayed every request due meanwhile, and the loop counted that delay as
 * the target's latency
 * (docs/decisions.md#the-open-loop-keeps-its-samples-off-the-generators-heap). A typed array's
 * numbers live outside the heap, so the loop's heap holds no object per sample.
 */
export class SampleLog {
  private readonly starts: Float64Array;
  private readonly latencies: Float64Array;
  private count = 0;

  constructor(readonly capacity: number) {
    if (!(Number.isInteger(capacity) && capacity >= 0))
      throw new RangeError(`a sample log needs a whole number of places, got ${capacity}`);
    this.starts = new Float64Array(capacity);
    this.latencies = new Float64Array(capacity);
  }

  /** Adds one sample; a log that is full refuses it rather than dropping it silently. */
  add(scheduledAtMs: number, latencyMs: number): void {
    if (this.count === this.capacity) throw new RangeError(`the sample log is full at ${this.capacity}`);
    this.starts[this.count] = scheduledAtMs;
    this.latencies[this.count] = latencyMs;
    this.count++;
  }

  /** The samples as [scheduled start, latency] pairs, in the order added, for the summaries after the loop. */
  pairs(): Array<[number, number]> {
    return Array.from({ length: this.count }, (_, i): [number, number] => [
      this.starts[i]!,
      this.latencies[i]!,
    ]);
  }
}
