import { describe, expect, it } from "vitest";
import { describeActionCode, EPG_ACTION_CODES, failureCodeForActionCode } from "../src/index.js";

describe("actionCode to failure code", () => {
  it.each([
    [116, "insufficient_funds"],
    [101, "expired_card"],
    [100, "card_declined"],
    [208, "card_declined"],
    [209, "card_declined"],
    [111, "incorrect_number"],
    [71015, "incorrect_number"],
    [-2004, "incorrect_cvc"],
    [121, "card_velocity_exceeded"],
    [-2006, "authentication_failed"],
    [151017, "authentication_failed"],
    [151018, "processor_timeout"],
    [151019, "processor_timeout"],
    [910, "processor_timeout"],
    [-2018, "processor_timeout"],
    [109, "processor_declined"],
    [120, "processor_declined"],
    [-2007, "session_timeout"],
  ])("when the acquirer declines with %i, then the failure code is %s", (actionCode, failureCode) => {
    expect(failureCodeForActionCode(actionCode)).toBe(failureCode);
  });

  it("when the order is approved (0), then there is no failure code", () => {
    expect(failureCodeForActionCode(0)).toBeUndefined();
  });

  it("when a decline carries a code the table does not know, then it is a plain card_declined", () => {
    expect(EPG_ACTION_CODES.has(123456)).toBe(false);
    expect(failureCodeForActionCode(123456)).toBe("card_declined");
    expect(describeActionCode(123456)).toBe("Declined");
  });

  it("every documented code has a description and maps to a known failure code", () => {
    const known = new Set([
      "card_declined",
      "insufficient_funds",
      "expired_card",
      "incorrect_number",
      "incorrect_cvc",
      "authentication_failed",
      "card_velocity_exceeded",
      "processor_declined",
      "processor_timeout",
      "session_timeout",
    ]);
    for (const [code, entry] of EPG_ACTION_CODES) {
      expect(entry.description.length, `description of ${code}`).toBeGreaterThan(0);
      expect(known.has(entry.failureCode), `failure code of ${code}`).toBe(true);
    }
  });
});
