import { describe, expect, it } from "vitest";
import { uniqueDbName } from "../src/index.js";

describe("uniqueDbName", () => {
  it("when called twice with one prefix, then the names differ and both carry the prefix", () => {
    const first = uniqueDbName("sessions");
    const second = uniqueDbName("sessions");
    expect(first).toMatch(/^test_sessions_[0-9a-f]{12}$/);
    expect(second).toMatch(/^test_sessions_[0-9a-f]{12}$/);
    expect(first).not.toBe(second);
  });

  it("when the prefix has characters FerretDB refuses in database names, then it throws", () => {
    expect(() => uniqueDbName("refunds.v1")).toThrow(/prefix must be letters, digits/);
    expect(() => uniqueDbName("")).toThrow(/prefix must be letters, digits/);
  });

  it("when the prefix would make the name longer than 63 characters, then it throws", () => {
    expect(uniqueDbName("a".repeat(45))).toHaveLength(63);
    expect(() => uniqueDbName("a".repeat(46))).toThrow(/too long/);
  });
});
