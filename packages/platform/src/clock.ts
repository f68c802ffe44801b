/** The time source. Everything that reads the time takes a Clock, so tests can move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests set and advance by hand. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | number = Date.UTC(2026, 0, 1)) {
    this.current = typeof start === "number" ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(to: Date | number): void {
    this.current = typeof to === "number" ? to : to.getTime();
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
