import { describe, expect, it } from "vitest";
import {
  contentSecurityPolicy,
  cspSourceOf,
  httpUrlOrUndefined,
} from "../../src/checkout/security-headers.js";

describe("CSP form-action sources", () => {
  it("writes an origin as scheme, host and port only", () => {
    expect(cspSourceOf("https://Shop.Example:8443")).toBe("https://shop.example:8443");
    expect(cspSourceOf("https://shop.example/cancel?x=1#y")).toBe("https://shop.example");
    expect(cspSourceOf("https://مثال.example/")).toBe("https://xn--mgbh0fb.example");
  });

  it.each(["https://x;sandbox", "https://x,y", "https://x'y", "https://[::1]:8080", "not a url"])(
    "drops %j, which cannot be written as a source without breaking the policy",
    (origin) => {
      expect(cspSourceOf(origin)).toBeUndefined();
      const policy = contentSecurityPolicy(["http://127.0.0.1:8080", origin]);
      expect(policy).toContain("form-action 'self' http://127.0.0.1:8080; frame-ancestors");
      expect(policy.split("; ")).toHaveLength(6);
    },
  );

  it("never turns a URL stored before strict validation into a link or redirect", () => {
    expect(httpUrlOrUndefined("https://x;sandbox/")).toBeUndefined();
    expect(httpUrlOrUndefined("http:evil.example")).toBeUndefined();
    expect(httpUrlOrUndefined("https://shop.example/ok")).toBe("https://shop.example/ok");
  });
});
