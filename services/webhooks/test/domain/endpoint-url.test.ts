import { GatewayError } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { validateEndpointUrl } from "../../src/domain/endpoint-url.js";

function violation(run: () => unknown) {
  try {
    run();
  } catch (err) {
    if (err instanceof GatewayError) return err.violations;
    throw err;
  }
  throw new Error("expected a validation error");
}

describe("webhook endpoint URL", () => {
  it("when the URL is https, then it is accepted in both modes", () => {
    expect(validateEndpointUrl(" https://shop.example.tn/hooks?x=1 ", true)).toBe(
      "https://shop.example.tn/hooks?x=1",
    );
    expect(validateEndpointUrl("http://localhost:3000/hooks", false)).toBe("http://localhost:3000/hooks");
  });

  it.each([
    ["", false, "required"],
    ["not a url", false, "invalid"],
    ["ftp://shop.example.tn/", false, "invalid"],
    ["http://shop.example.tn/hooks", true, "invalid"],
    ["https://user:pass@shop.example.tn/hooks", false, "invalid"],
    ["https://shop.example.tn/hooks#frag", false, "invalid"],
    [`https://shop.example.tn/${"a".repeat(2048)}`, false, "invalid"],
  ])("when the URL is %j (live %s), then it is refused with %s on url", (url, live, code) => {
    expect(violation(() => validateEndpointUrl(url, live))).toEqual([
      { field: "url", code, message: expect.any(String) },
    ]);
  });
});
