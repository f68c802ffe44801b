import { describe, expect, it } from "vitest";
import { readRefundForm } from "../../src/dashboard/payments/refund-form.js";

describe("the dashboard's refund form", () => {
  it("when a full refund is reviewed, then no amount is kept and it is not yet confirmed", () => {
    expect(readRefundForm({ type: "FULL", amount: "5.000", reason: " damaged " })).toEqual({
      ok: true,
      form: { type: "FULL", amount: "", reason: "damaged", confirmed: false },
    });
  });

  it("when a partial refund is confirmed, then its exact amount string is kept as typed", () => {
    expect(readRefundForm({ type: "PARTIAL", amount: "10.500", confirm: "yes" })).toEqual({
      ok: true,
      form: { type: "PARTIAL", amount: "10.500", reason: "", confirmed: true },
    });
  });

  it("when the amount is missing or not an exact TND amount, then the problem is named", () => {
    expect(readRefundForm({ type: "PARTIAL" })).toEqual({ ok: false, problems: ["amount_required"] });
    for (const amount of ["10.5", "1e2", "-1.000", "0.000", "10,500", "NaN"]) {
      expect(readRefundForm({ type: "PARTIAL", amount })).toEqual({
        ok: false,
        problems: ["invalid_amount"],
      });
    }
  });

  it("when the type is unknown or the reason too long, then it is refused", () => {
    expect(readRefundForm({ type: "ALL" })).toEqual({ ok: false, problems: ["unknown_type"] });
    expect(readRefundForm({ type: "FULL", reason: "x".repeat(501) })).toEqual({
      ok: false,
      problems: ["reason_too_long"],
    });
  });
});
