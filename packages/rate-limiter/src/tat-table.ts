/**
 * TATs held in this process, bounded. A TAT at or before `now` means a full bucket, the same
 * as no entry, so such entries are dropped when met or swept; when still over the bound the
 * oldest-written entries go first (their budgets then start full, or are read from the store).
 */
export class TatTable {
  private readonly tats = new Map<string, number>();

  constructor(private readonly maxEntries = 100_000) {}

  get(key: string, now: number): number | undefined {
    const tat = this.tats.get(key);
    if (tat !== undefined && tat <= now) {
      this.tats.delete(key);
      return undefined;
    }
    return tat;
  }

  set(key: string, tat: number, now: number): void {
    this.tats.delete(key);
    if (tat <= now) return;
    this.tats.set(key, tat);
    if (this.tats.size > this.maxEntries) this.shrink(now);
  }

  private shrink(now: number): void {
    for (const [key, tat] of this.tats) if (tat <= now) this.tats.delete(key);
    for (const key of this.tats.keys()) {
      if (this.tats.size <= this.maxEntries) break;
      this.tats.delete(key);
    }
  }
}
