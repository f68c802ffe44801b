import type { SweepLocks } from "../../app/ports.js";

/** Sweep claims of one process (embedded mode, unit tests). */
export class InMemorySweepLocks implements SweepLocks {
  private readonly held = new Map<string, { holder: string; until: Date }>();

  async acquire(key: string, holder: string, until: Date, now: Date): Promise<boolean> {
    const current = this.held.get(key);
    if (current && current.until.getTime() > now.getTime()) return false;
    this.held.set(key, { holder, until: new Date(until) });
    return true;
  }

  async release(key: string, holder: string): Promise<void> {
    if (this.held.get(key)?.holder === holder) this.held.delete(key);
  }
}
