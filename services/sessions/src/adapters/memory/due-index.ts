/** Width of one bucket of the index, in ms: the sweeper looks about once a second. */
const BUCKET_MS = 1_000;

const bucketOf = (time: number): number => Math.floor(time / BUCKET_MS);

/** The first position in ascending `keys` whose key is at least `key`. */
function firstAtLeast(keys: readonly number[], key: number): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (keys[middle]! < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Ids by the moments they fall due (epoch ms), in one-second buckets kept in time order. The
 * in-memory session store finds the sweeper's due work here instead of reading every session:
 * a look costs what is due, not what is stored
 * (docs/decisions.md#the-sweeper-looks-at-the-minutes-that-just-fell-due).
 */
export class DueIndex {
  private readonly buckets = new Map<number, Set<string>>();
  /** The keys of `buckets`, ascending. */
  private readonly bucketKeys: number[] = [];
  /**
   * Each id's moments: a lone moment as the number itself, several as an array. An open session
   * has one for most of its life (its expiry, once its first link's expiry is announced), and an
   * array of one was two more heap objects per session
   * (docs/decisions.md#sessions-in-memory-are-kept-encoded).
   */
  private readonly timesById = new Map<string, number | readonly number[]>();

  /** `id` falls due at each of `times` and at no other moment; none forgets it. */
  set(id: string, times: readonly number[]): void {
    this.delete(id);
    if (times.length === 0) return;
    this.timesById.set(id, times.length === 1 ? times[0]! : [...times]);
    for (const time of times) {
      const key = bucketOf(time);
      let bucket = this.buckets.get(key);
      if (!bucket) {
        bucket = new Set();
        this.buckets.set(key, bucket);
        this.bucketKeys.splice(firstAtLeast(this.bucketKeys, key), 0, key);
      }
      bucket.add(id);
    }
  }

  delete(id: string): void {
    const times = this.timesOf(id);
    if (!times) return;
    this.timesById.delete(id);
    for (const time of times) {
      const key = bucketOf(time);
      const bucket = this.buckets.get(key);
      if (!bucket) continue;
      bucket.delete(id);
      if (bucket.size === 0) {
        this.buckets.delete(key);
        this.bucketKeys.splice(firstAtLeast(this.bucketKeys, key), 1);
      }
    }
  }

  /** The earliest moment `id` falls due; undefined when it has none. */
  firstTime(id: string): number | undefined {
    const times = this.timesById.get(id);
    return times === undefined || typeof times === "number" ? times : Math.min(...times);
  }

  /** The ids with a moment from `since` to `until`, both included. */
  dueBetween(since: number, until: number): Set<string> {
    const due = new Set<string>();
    const last = bucketOf(until);
    const first = Number.isFinite(since) ? firstAtLeast(this.bucketKeys, bucketOf(since)) : 0;
    for (let i = first; i < this.bucketKeys.length && this.bucketKeys[i]! <= last; i++) {
      for (const id of this.buckets.get(this.bucketKeys[i]!)!) {
        if (this.timesOf(id)!.some((time) => time >= since && time <= until)) due.add(id);
      }
    }
    return due;
  }

  private timesOf(id: string): readonly number[] | undefined {
    const times = this.timesById.get(id);
    return typeof times === "number" ? [times] : times;
  }

  get size(): number {
    return this.timesById.size;
  }
}
