import { describe, expect, it } from "vitest";
import { keyOfValue } from "../src/key-of-value.js";

describe("keyOfValue", () => {
  const table = { PENDING: 1, SUCCEEDED: 2, FAILED: 3 } as const;

  it("when a key has the value, then that key", () => {
    expect(keyOfValue(table, 2)).toBe("SUCCEEDED");
  });

  it("when no key has the value (an UNSPECIFIED enum), then undefined", () => {
    expect(keyOfValue(table, 0 as never)).toBeUndefined();
  });
});
