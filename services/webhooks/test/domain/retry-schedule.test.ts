import { describe, expect, it } from "vitest";
import { assertRetrySchedule, MAX_RETRY_AFTER_MS, planRetry } from "../../src/domain/retry-schedule.js";

const MIN = 60_000;
const HOUR = 60 * MIN;
const SPEC = [MIN, 2 * HOUR, 24 * HOUR];
const FAILED_AT = new Date(Date.UTC(2026, 0, 1, 12, 0, 0));
const chain = (chainAttempt: number) => ({
  chainAttempt,
  trigger: chainAttempt === 1 ? ("initial" as const) : ("retry" as const),
});

describe("retry schedule (spec 6.5: about 1 min, 2 h, 24 h after the failure)", () => {
  it.each([
    [1, MIN],
    [2, 2 * HOUR],
    [3, 24 * HOUR],
  ])("when chain attempt %i fails, then the next try is %i ms later", (attempt, delay) => {
    expect(planRetry(chain(attempt), { gone: false }, SPEC, FAILED_AT)).toEqual({
      retry: true,
      delayMs: delay,
      at: new Date(FAILED_AT.getTime() + delay),
    });
  });

  it("when the third retry (fourth attempt) fails, then nothing more is tried", () => {
    expect(planRetry(chain(4), { gone: false }, SPEC, FAILED_AT)).toEqual({
      retry: false,
      reason: "exhausted",
    });
  });

  it("when the receiver's Retry-After is longer than the schedule, then it is honoured", () => {
    const plan = planRetry(chain(1), { gone: false, retryAfterMs: 5 * MIN }, SPEC, FAILED_AT);
    expect(plan).toEqual({ retry: true, delayMs: 5 * MIN, at: new Date(FAILED_AT.getTime() + 5 * MIN) });
  });

  it("when the receiver's Retry-After is shorter than the schedule, then the schedule wins", () => {
    expect(planRetry(chain(2), { gone: false, retryAfterMs: 10_000 }, SPEC, FAILED_AT)).toMatchObject({
      retry: true,
      delayMs: 2 * HOUR,
    });
  });

  it("when Retry-After asks for more than a day, then the wait is capped at a day", () => {
    expect(planRetry(chain(1), { gone: false, retryAfterMs: 30 * 24 * HOUR }, SPEC, FAILED_AT)).toMatchObject(
      { delayMs: MAX_RETRY_AFTER_MS },
    );
  });

  it("when the receiver answered 410 Gone, then the chain ends, whatever is left of it", () => {
    expect(planRetry(chain(1), { gone: true, retryAfterMs: MIN }, SPEC, FAILED_AT)).toEqual({
      retry: false,
      reason: "gone",
    });
  });

  it("when a resend fails, then it is not retried automatically", () => {
    expect(planRetry({ chainAttempt: 1, trigger: "resend" }, { gone: false }, SPEC, FAILED_AT)).toEqual({
      retry: false,
      reason: "resend",
    });
  });

  it("when the schedule is configured in milliseconds, then tests can run it fast", () => {
    expect(planRetry(chain(1), { gone: false }, [50, 100, 200], FAILED_AT)).toMatchObject({ delayMs: 50 });
    expect(planRetry(chain(1), { gone: false }, [], FAILED_AT)).toEqual({
      retry: false,
      reason: "exhausted",
    });
  });

  it("when a schedule has a negative or fractional wait, then it is refused", () => {
    expect(() => assertRetrySchedule([1, -1])).toThrow(RangeError);
    expect(() => assertRetrySchedule([1.5])).toThrow(RangeError);
    expect(() => assertRetrySchedule([0, 50])).not.toThrow();
  });
});
