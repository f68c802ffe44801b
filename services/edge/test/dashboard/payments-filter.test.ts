import { create } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { AccountScopeSchema, SessionStatus } from "@gateway/proto";
import { describe, expect, it } from "vitest";
import { PAYMENTS_PAGE_SIZE, readPaymentsFilter } from "../../src/dashboard/payments/payments-filter.js";

const scope = create(AccountScopeSchema, { merchantId: "mer_1", livemode: false });

describe("the dashboard's payments filter form", () => {
  it("when the form is empty, then every payment of the scope is asked for, one page at a time", () => {
    const filter = readPaymentsFilter({}, scope);
    expect(filter.ok).toBe(true);
    if (!filter.ok) return;
    expect(filter.request.scope).toMatchObject({ merchantId: "mer_1", livemode: false });
    expect(filter.request.page).toMatchObject({ limit: PAYMENTS_PAGE_SIZE, startingAfter: "" });
    expect(filter.request).toMatchObject({
      status: SessionStatus.UNSPECIFIED,
      merchantReference: "",
      amount: "",
    });
    expect(filter.request.createdGte).toBeUndefined();
  });

  it("when every filter is given, then each reaches the request, the to-day inclusive and the amount as typed", () => {
    const filter = readPaymentsFilter(
      {
        status: "SUCCEEDED",
        reference: " order-42 ",
        order: "GW-ABC",
        from: "2026-03-01",
        to: "2026-03-02",
        amount: "12.500",
        after: "ps_x",
      },
      scope,
    );
    expect(filter.ok).toBe(true);
    if (!filter.ok) return;
    expect(filter.request).toMatchObject({
      status: SessionStatus.SUCCEEDED,
      merchantReference: "order-42",
      orderNumber: "GW-ABC",
      amount: "12.500",
    });
    expect(filter.request.page?.startingAfter).toBe("ps_x");
    expect(timestampDate(filter.request.createdGte!).toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(timestampDate(filter.request.createdLte!).toISOString()).toBe("2026-03-02T23:59:59.999Z");
  });

  it("when inputs are wrong, then each is named with its problem and no request is made", () => {
    const filter = readPaymentsFilter(
      { status: "PAID", from: "2026-02-31", to: "yesterday", amount: "12.5" },
      scope,
    );
    expect(filter.ok).toBe(false);
    if (filter.ok) return;
    expect(filter.problems).toEqual([
      { field: "status", code: "unknown_status" },
      { field: "from", code: "invalid_date" },
      { field: "to", code: "invalid_date" },
      { field: "amount", code: "invalid_amount" },
    ]);
    expect(filter.form.amount).toBe("12.5");
  });

  it("when the range ends before it starts or the amount is not a plain positive decimal, then it is refused", () => {
    const reversed = readPaymentsFilter({ from: "2026-03-02", to: "2026-03-01" }, scope);
    expect(reversed.ok ? [] : reversed.problems).toEqual([{ field: "to", code: "date_range" }]);
    for (const amount of ["1e3", "-1.000", "0.000", "1,000.000", "12.5000"]) {
      const bad = readPaymentsFilter({ amount }, scope);
      expect(bad.ok ? [] : bad.problems).toEqual([{ field: "amount", code: "invalid_amount" }]);
    }
  });
});
