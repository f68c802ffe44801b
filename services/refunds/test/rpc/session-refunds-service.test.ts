import { type Client, createClient } from "@connectrpc/connect";
import {
  createInProcessTransport,
  createLogger,
  fromConnectError,
  type ManualClock,
} from "@gateway/platform";
import { RefundService, RefundStatus, RefundType, SessionRefundsService } from "@gateway/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRefundsRoutes } from "../../src/refunds-module.js";
import { type RefundHarness, startRefundHarness } from "../support/refund-harness.js";

let h: RefundHarness;
let refunds: Client<typeof RefundService>;
let sessionRefunds: Client<typeof SessionRefundsService>;

beforeAll(async () => {
  h = await startRefundHarness();
  const logger = createLogger({ service: "refunds-test", level: "silent" });
  const transport = createInProcessTransport({
    name: "refunds",
    routes: createRefundsRoutes(h.deps),
    logger,
  });
  refunds = createClient(RefundService, transport);
  sessionRefunds = createClient(SessionRefundsService, transport);
});

afterAll(async () => {
  await h.close();
});

describe("SessionRefundsService over Connect (the dashboard's session detail)", () => {
  it("when a session has an automated and a manual refund, then both are listed in order, the manual one waiting on the acquirer", async () => {
    h.setSettled(true);
    const s = await h.paidSession(5_000n);
    const partial = await refunds.createRefund({
      scope: s.scope,
      sessionId: s.sessionId,
      refundType: RefundType.PARTIAL,
      amount: "1.250",
    });
    (h.deps.clock as ManualClock).advance(1_000);
    // The rest was refunded outside the gateway: the acquirer refuses, the refund waits for operations.
    await h.acquirer.refund({
      terminal: h.terminal,
      acquirerOrderId: s.acquirerOrderId,
      amountMinor: 3_750n,
      externalRefundId: "outside",
    });
    const manual = await refunds.createRefund({
      scope: s.scope,
      sessionId: s.sessionId,
      refundType: RefundType.FULL,
    });
    expect(manual.refund?.status).toBe(RefundStatus.PENDING_MANUAL);

    const listed = await sessionRefunds.listSessionRefunds({ scope: s.scope, sessionId: s.sessionId });
    expect(listed.refunds.map((r) => [r.id, r.amount, r.status, r.automated])).toEqual([
      [partial.refund!.id, "1.250", RefundStatus.SUCCEEDED, true],
      [manual.refund!.id, "3.750", RefundStatus.PENDING_MANUAL, false],
    ]);
    const first = await sessionRefunds.listSessionRefunds({
      scope: s.scope,
      sessionId: s.sessionId,
      limit: 1,
    });
    expect(first.refunds.map((r) => r.id)).toEqual([partial.refund!.id]);
  });

  it("when another account asks for a session's refunds, then it gets none", async () => {
    h.setSettled(true);
    const s = await h.paidSession(1_000n);
    await refunds.createRefund({ scope: s.scope, sessionId: s.sessionId, refundType: RefundType.FULL });
    const otherMerchant = { ...s.scope, merchantId: "mer_someone_else" };
    expect(
      (await sessionRefunds.listSessionRefunds({ scope: otherMerchant, sessionId: s.sessionId })).refunds,
    ).toEqual([]);
    const otherMode = { ...s.scope, livemode: !s.scope.livemode };
    expect(
      (await sessionRefunds.listSessionRefunds({ scope: otherMode, sessionId: s.sessionId })).refunds,
    ).toEqual([]);
  });

  it("when the request is wrong, then it is a validation error naming the field, or unauthorized without a scope", async () => {
    const s = await h.paidSession(1_000n);
    const fieldsOf = async (promise: Promise<unknown>) => {
      const err = await promise.then(
        () => undefined,
        (e: unknown) => fromConnectError(e),
      );
      return [err?.reason, err?.violations.map((v) => v.field)];
    };
    expect(await fieldsOf(sessionRefunds.listSessionRefunds({ scope: s.scope, sessionId: " " }))).toEqual([
      "VALIDATION_ERROR",
      ["session_id"],
    ]);
    expect(
      await fieldsOf(
        sessionRefunds.listSessionRefunds({ scope: s.scope, sessionId: s.sessionId, limit: 101 }),
      ),
    ).toEqual(["VALIDATION_ERROR", ["limit"]]);
    expect((await fieldsOf(sessionRefunds.listSessionRefunds({ sessionId: s.sessionId })))[0]).toBe(
      "UNAUTHORIZED",
    );
  });
});
