import { describe, expect, it } from "vitest";
import { D, formatRate, parseRate } from "../src/index.js";

describe("exchange rates", () => {
  it.each([
    ["3.4", "3.400000"],
    ["3.400000", "3.400000"],
    ["1", "1.000000"],
    ["0.000001", "0.000001"],
    ["0.0005", "0.000500"],
    ["999999999999.999999", "999999999999.999999"],
  ])("when the rate is %s, then it is accepted and shown as %s", (text, formatted) => {
    const result = parseRate(text);
    expect(result.ok).toBe(true);
    if (result.ok) expect(formatRate(result.value)).toBe(formatted);
  });

  it.each([
    ["1,5", /decimal string/],
    ["03.4", /decimal string/],
    ["3.4e0", /decimal string/],
    ["+3.4", /decimal string/],
    [" 3.4", /decimal string/],
    ["", /decimal string/],
    [".5", /decimal string/],
    ["NaN", /decimal string/],
    ["3.4000001", /at most 6 decimal places/],
    ["1000000000000", /at most 12 digits before the decimal point/],
    ["0", /greater than zero/],
    ["0.000000", /greater than zero/],
    ["-3.4", /greater than zero/],
  ])("when the rate is %j, then it is refused with a clear message", (text, message) => {
    const result = parseRate(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it("when a computed rate has more than six decimals, then formatting rounds half-up", () => {
    expect(formatRate(new D("0.0000005"))).toBe("0.000001");
    expect(formatRate(new D("0.00000049"))).toBe("0.000000");
  });
});
