import { describe, expect, it } from "vitest";
import {
  capViolations,
  MAX_REPORTED_VIOLATIONS,
  ViolationCollector,
} from "../../src/validation/violation-cap.js";

const v = (i: number) => ({ field: `f${i}`, code: "invalid", message: "Unknown field." });

describe("violation cap", () => {
  it("keeps the first 50 and counts the rest, on top of what was already left out", () => {
    const capped = capViolations(
      Array.from({ length: 120 }, (_, i) => v(i)),
      7,
    );
    expect(capped.violations).toHaveLength(MAX_REPORTED_VIOLATIONS);
    expect(capped.violations[49]).toEqual(v(49));
    expect(capped.omitted).toBe(77);
  });

  it("cuts long field paths in the middle, so names differing at the end stay apart", () => {
    const long = (end: string) => `${"n".repeat(10_000)}${end}`;
    const capped = capViolations([
      { field: long("1"), code: "invalid", message: "x" },
      { field: long("2"), code: "invalid", message: "x" },
    ]);
    expect(capped.violations.map((x) => x.field.length)).toEqual([200, 200]);
    expect(capped.violations[0]!.field).toMatch(/^n+…n+1$/);
    expect(capped.violations[1]!.field).toMatch(/2$/);
  });

  it("collects up to the cap and only counts beyond it", () => {
    const collector = new ViolationCollector();
    for (let i = 0; i < 100_000; i++) collector.add(v(i));
    collector.add(undefined);
    expect(collector.violations).toHaveLength(MAX_REPORTED_VIOLATIONS);
    expect(collector.omitted).toBe(100_000 - MAX_REPORTED_VIOLATIONS);
  });
});
