import { describe, expect, it } from "vitest";
import { captureLogger } from "./capture-logger.js";

describe("logger", () => {
  it("when secrets are logged by field, nested header or inside a message, then none of their values reach the output", () => {
    const { logger, text, lines } = captureLogger();
    logger.info(
      {
        authorization: "Bearer sk_live_fieldValue1",
        api_key: "sk_test_apiKeyField2",
        secret: "whsec_fieldSecret3",
        password: "hunter2-password",
        headers: { authorization: "Bearer nestedHeaderValue4" },
        merchant: "mer_123",
      },
      "authenticated with sk_test_abc123XYZ, signing with whsec_abc",
    );
    const out = text();
    for (const value of [
      "sk_live_fieldValue1",
      "apiKeyField2",
      "whsec_fieldSecret3",
      "hunter2-password",
      "nestedHeaderValue4",
      "sk_test_abc123XYZ",
      "abc123XYZ",
      "whsec_abc",
    ]) {
      expect(out).not.toContain(value);
    }
    expect(lines()[0]).toMatchObject({ merchant: "mer_123", service: "test", authorization: "[REDACTED]" });
    expect(lines()[0]!.msg).toBe("authenticated with sk_test_[REDACTED], signing with whsec_[REDACTED]");
  });

  it("when an error quoting a key is logged, then the key is scrubbed from its message and stack", () => {
    const { logger, text } = captureLogger();
    logger.error({ err: new Error("bad key sk_live_fromErrorMsg9") }, "request failed");
    expect(text()).not.toContain("fromErrorMsg9");
    expect(text()).toContain("sk_live_[REDACTED]");
  });
});
