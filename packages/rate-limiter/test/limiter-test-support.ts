import { ManualClock } from "@gateway/platform";
import {
  createGcraRateLimiter,
  type Decision,
  defaultRateLimitPolicy,
  type GcraRateLimiterOptions,
  type GcraStore,
  InMemoryGcraStore,
  type RateLimitCheck,
  type RateLimiter,
} from "../src/index.js";

export const LIVE_ACCOUNT: Omit<RateLimitCheck, "merchantId"> = { livemode: true, budgets: ["account"] };

export interface LimiterUnderTest {
  limiter: RateLimiter;
  clock: ManualClock;
  store: GcraStore;
}

/** A limiter over an in-memory store, on a ManualClock; options override the defaults. */
export function limiterOverMemory(options: Partial<GcraRateLimiterOptions> = {}): LimiterUnderTest {
  const clock = (options.clock as ManualClock | undefined) ?? new ManualClock();
  const store = options.store ?? new InMemoryGcraStore({ clock });
  const limiter = createGcraRateLimiter({ policy: defaultRateLimitPolicy, ...options, store, clock });
  return { limiter, clock, store };
}

/** Sends `count` checks one after another (same instant unless the caller moves the clock). */
export async function checkTimes(
  limiter: RateLimiter,
  count: number,
  request: RateLimitCheck,
): Promise<Decision[]> {
  const decisions: Decision[] = [];
  for (let i = 0; i < count; i++) decisions.push(await limiter.check(request));
  return decisions;
}

export function admitted(decisions: readonly Decision[]): number {
  return decisions.filter((d) => d.allowed).length;
}
