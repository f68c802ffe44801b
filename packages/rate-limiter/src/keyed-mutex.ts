/**
 * Runs tasks with the same key one after another (FIFO), tasks with different keys in parallel.
 * The limiter serialises the checks of one merchant and mode inside a replica, so compare-and-set
 * conflicts only arise between replicas, not among a replica's own concurrent requests.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    try {
      await previous;
      return await task();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
