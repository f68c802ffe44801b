/**
 * One task per key at a time in this process: a caller arriving while the key's task runs gets
 * that task's promise instead of starting another. Keys are globally unique ids (attempt ids,
 * acquirer order ids), so one instance serves the whole process.
 */
export class SingleFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  run(key: string, task: () => Promise<T>): Promise<T> {
    const existing = this.running.get(key);
    if (existing) return existing;
    const promise = task().finally(() => this.running.delete(key));
    this.running.set(key, promise);
    return promise;
  }

  /** The key's task while it runs in this process. */
  joining(key: string): Promise<T> | undefined {
    return this.running.get(key);
  }
}
