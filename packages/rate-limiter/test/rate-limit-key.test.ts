import { describe, expect, it } from "vitest";
import { rateLimitKey } from "../src/index.js";

describe("rateLimitKey", () => {
  it("when the merchant id is a real one, then the key is rl.<budget>.<merchant>.<mode> unchanged", () => {
    expect(rateLimitKey("account", "mer_3kTQbV9xLm2P", true)).toBe("rl.account.mer_3kTQbV9xLm2P.live");
    expect(rateLimitKey("refund", "mer_3kTQbV9xLm2P", false)).toBe("rl.refund.mer_3kTQbV9xLm2P.test");
  });

  it("when the merchant id holds characters a KV key cannot, then they are escaped so keys stay valid and distinct", () => {
    expect(rateLimitKey("create", "a.b", true)).toBe("rl.create.a=2Eb.live");
    expect(rateLimitKey("create", "a=2Eb", true)).toBe("rl.create.a=3D2Eb.live");
    expect(rateLimitKey("create", "é *>", true)).toBe("rl.create.=C3=A9=20=2A=3E.live");
    for (const id of ["a.b", "a=2Eb", "é *>", "x/y"])
      expect(rateLimitKey("account", id, true)).toMatch(/^[-/_=.A-Za-z0-9]+$/);
  });

  it("when the merchant id is empty or too long, then it is refused", () => {
    expect(() => rateLimitKey("account", "", true)).toThrow(/non-empty/);
    expect(() => rateLimitKey("account", "m".repeat(256), true)).toThrow(/longer than 255/);
  });
});
