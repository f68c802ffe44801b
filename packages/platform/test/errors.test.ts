import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { fromConnectError, readErrorDetail, toConnectError } from "../src/errors/connect-errors.js";
import { GatewayError } from "../src/errors/gateway-error.js";

describe("errors across the wire", () => {
  it("when a GatewayError goes through toConnectError and back, then reason, metadata and violations survive", () => {
    const original = new GatewayError("VALIDATION_ERROR", "One or more fields failed validation.", {
      metadata: { session_id: "ps_1" },
      violations: [{ field: "amount", code: "invalid_amount", message: "must be positive" }],
    });
    const ce = toConnectError(original, "sessions.gateway");
    expect(ce.code).toBe(Code.InvalidArgument);
    expect(readErrorDetail(ce)?.domain).toBe("sessions.gateway");
    const back = fromConnectError(ce);
    expect(back).toBeInstanceOf(GatewayError);
    expect(back.reason).toBe("VALIDATION_ERROR");
    expect(back.message).toBe("One or more fields failed validation.");
    expect(back.metadata).toEqual({ session_id: "ps_1" });
    expect(back.violations).toEqual([
      { field: "amount", code: "invalid_amount", message: "must be positive" },
    ]);
  });

  it("when an unknown error is converted, then it is INTERNAL with a generic message and the cause stays out of it", () => {
    const cause = new Error("connection string mongodb://admin:pw@db leaked");
    const ce = toConnectError(cause, "accounts.gateway");
    expect(ce.code).toBe(Code.Internal);
    expect(ce.rawMessage).toBe("Internal error.");
    expect(ce.message).not.toContain("mongodb://");
    expect(readErrorDetail(ce)?.reason).toBe("INTERNAL");
    expect(ce.cause).toBe(cause);
    expect(fromConnectError(ce).reason).toBe("INTERNAL");
  });

  it("when a call fails as Unavailable without a detail, then the caller gets SERVICE_UNAVAILABLE", () => {
    const back = fromConnectError(new ConnectError("connect ECONNREFUSED 127.0.0.1:50051", Code.Unavailable));
    expect(back.reason).toBe("SERVICE_UNAVAILABLE");
    expect(back.message).not.toContain("ECONNREFUSED");
  });

  it("when a call times out, then the caller gets SERVICE_UNAVAILABLE too", () => {
    expect(fromConnectError(new ConnectError("deadline", Code.DeadlineExceeded)).reason).toBe(
      "SERVICE_UNAVAILABLE",
    );
  });

  it("when a ConnectError without detail has another code, then the caller gets INTERNAL", () => {
    expect(fromConnectError(new ConnectError("weird", Code.DataLoss)).reason).toBe("INTERNAL");
  });
});
