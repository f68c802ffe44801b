/**
 * Runs tasks that share a key one after another, in call order; tasks of different keys run
 * freely. A failed task does not stop the ones queued behind it.
 */
export class KeyedSerializer {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a task queued or running (for tests: nothing is left behind). */
  get size(): number {
    return this.tails.size;
  }
}
