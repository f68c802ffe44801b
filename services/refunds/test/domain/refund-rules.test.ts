import { describe, expect, it } from "vitest";
import { remainingMinor } from "../../src/domain/refund.js";
import {
  amountToTake,
  assertRefundable,
  type PaidSession,
  requestedAmountMinor,
} from "../../src/domain/refund-rules.js";
import { errorOf } from "../support/reason-of.js";

const paid: PaidSession = {
  status: "SUCCEEDED",
  amountMinor: 125_500n,
  currency: "TND",
  acquirerOrderId: "ord-1",
  merchantReference: "order-1",
  orderNumber: "GW-1",
  webhookUrl: "",
};

describe("assertRefundable", () => {
  it("when the session succeeded with a payment, then it can be refunded", () => {
    expect(() => assertRefundable(paid)).not.toThrow();
  });

  it.each(["CREATED", "PENDING", "PROCESSING", "FAILED", "EXPIRED", "CANCELED"])(
    "when the session is %s, then the refund is refused as INVALID_STATE",
    async (status) => {
      const err = await errorOf(() => assertRefundable({ ...paid, status }));
      expect(err.reason).toBe("INVALID_STATE");
      expect(err.metadata.status).toBe(status);
    },
  );

  it("when no attempt succeeded (no acquirer order), then the refund is refused as NO_PAYMENT", async () => {
    expect((await errorOf(() => assertRefundable({ ...paid, acquirerOrderId: undefined }))).reason).toBe(
      "NO_PAYMENT",
    );
    expect((await errorOf(() => assertRefundable({ ...paid, acquirerOrderId: "" }))).reason).toBe(
      "NO_PAYMENT",
    );
    expect((await errorOf(() => assertRefundable({ ...paid, amountMinor: 0n }))).reason).toBe("NO_PAYMENT");
  });
});

describe("requestedAmountMinor", () => {
  it("when the refund is FULL, then no amount is read (even a bad one)", () => {
    expect(requestedAmountMinor("FULL", undefined, "TND")).toBeUndefined();
    expect(requestedAmountMinor("FULL", "x", "TND")).toBeUndefined();
  });

  it("when a PARTIAL amount is well-formed, then it becomes exact minor units", () => {
    expect(requestedAmountMinor("PARTIAL", "0.001", "TND")).toBe(1n);
    expect(requestedAmountMinor("PARTIAL", "999999.999", "TND")).toBe(999_999_999n);
    expect(requestedAmountMinor("PARTIAL", "0.10", "EUR")).toBe(10n);
    // Beyond 2^53: no float anywhere on the way.
    expect(requestedAmountMinor("PARTIAL", "9007199254740993.00", "EUR")).toBe(900719925474099300n);
  });

  it.each([
    [undefined, "required"],
    ["", "required"],
    ["1,000.000", "invalid_format"],
    ["01.000", "invalid_format"],
    ["1e3", "invalid_format"],
    ["abc", "invalid_format"],
    ["10.00", "invalid_precision"],
    ["10.0000", "invalid_precision"],
    ["0.000", "invalid_value"],
    ["-5.000", "invalid_value"],
  ])("when a PARTIAL amount is %j, then it fails validation with %s", async (amount, code) => {
    const err = await errorOf(() => requestedAmountMinor("PARTIAL", amount, "TND"));
    expect(err.reason).toBe("VALIDATION_ERROR");
    expect(err.violations).toEqual([expect.objectContaining({ field: "amount", code })]);
  });
});

describe("amountToTake", () => {
  const balance = { paidMinor: 125_500n, refundedMinor: 25_499n };

  it("when the refund is FULL, then it takes exactly what is left", () => {
    expect(amountToTake(undefined, balance)).toBe(100_001n);
    expect(remainingMinor(balance)).toBe(100_001n);
  });

  it("when a PARTIAL fits, then it takes its amount, up to the last minor unit", () => {
    expect(amountToTake(1n, balance)).toBe(1n);
    expect(amountToTake(100_001n, balance)).toBe(100_001n);
  });

  it("when a PARTIAL exceeds what is left by one minor unit, then it is REFUND_FAILED", async () => {
    const err = await errorOf(() => amountToTake(100_002n, balance));
    expect(err.reason).toBe("REFUND_FAILED");
    expect(err.message).toMatch(/exceeds the refundable balance/);
  });

  it("when nothing is left, then FULL and PARTIAL are REFUND_FAILED", async () => {
    const spent = { paidMinor: 125_500n, refundedMinor: 125_500n };
    expect((await errorOf(() => amountToTake(undefined, spent))).reason).toBe("REFUND_FAILED");
    expect((await errorOf(() => amountToTake(1n, spent))).reason).toBe("REFUND_FAILED");
  });
});
