import { type Client, createClient } from "@connectrpc/connect";
import { createInProcessTransport, createLogger, fromConnectError } from "@gateway/platform";
import { ManualOutcome, RefundMethod, RefundService, RefundStatus, RefundType } from "@gateway/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRefundsRoutes } from "../../src/refunds-module.js";
import { type RefundHarness, startRefundHarness } from "../support/refund-harness.js";

let h: RefundHarness;
let client: Client<typeof RefundService>;

beforeAll(async () => {
  h = await startRefundHarness();
  const logger = createLogger({ service: "refunds-test", level: "silent" });
  client = createClient(
    RefundService,
    createInProcessTransport({ name: "refunds", routes: createRefundsRoutes(h.deps), logger }),
  );
});

afterAll(async () => {
  await h.close();
});

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    return fromConnectError(err).reason;
  }
  throw new Error("expected an error");
}

describe("RefundService over Connect", () => {
  it("when a partial refund is created and read back, then amounts are decimal strings at the currency's precision", async () => {
    h.setSettled(true);
    const s = await h.paidSession(34_000n);
    const { refund } = await client.createRefund({
      scope: s.scope,
      sessionId: s.sessionId,
      refundType: RefundType.PARTIAL,
      amount: "10.500",
      reason: "late",
      metadataJson: '{"k":"v"}',
    });
    expect(refund).toMatchObject({
      sessionId: s.sessionId,
      amount: "10.500",
      currency: "TND",
      status: RefundStatus.SUCCEEDED,
      automated: true,
      method: RefundMethod.REFUND,
      acquirerErrorMessage: "",
      reason: "late",
      metadataJson: '{"k":"v"}',
    });
    const read = await client.getRefund({ scope: s.scope, refundId: refund!.id });
    expect(read.refund?.amount).toBe("10.500");
  });

  it("when the request is wrong, then the domain reasons travel as error details", async () => {
    const s = await h.paidSession(1_000n);
    expect(
      await reasonOf(
        client.createRefund({ scope: s.scope, sessionId: s.sessionId, refundType: RefundType.UNSPECIFIED }),
      ),
    ).toBe("VALIDATION_ERROR");
    expect(
      await reasonOf(
        client.createRefund({
          scope: s.scope,
          sessionId: s.sessionId,
          refundType: RefundType.PARTIAL,
          amount: "2.000",
        }),
      ),
    ).toBe("REFUND_FAILED");
    expect(await reasonOf(client.createRefund({ sessionId: s.sessionId, refundType: RefundType.FULL }))).toBe(
      "UNAUTHORIZED",
    );
    expect(await reasonOf(client.getRefund({ scope: s.scope, refundId: "re_unknown" }))).toBe("NOT_FOUND");
  });

  it("when the acquirer refuses, then the refund is listed for operations and can be resolved", async () => {
    h.setSettled(true);
    const s = await h.paidSession(2_000n);
    await h.acquirer.refund({
      terminal: h.terminal,
      acquirerOrderId: s.acquirerOrderId,
      amountMinor: 2_000n,
      externalRefundId: "outside",
    });
    const { refund } = await client.createRefund({
      scope: s.scope,
      sessionId: s.sessionId,
      refundType: RefundType.FULL,
    });
    expect(refund).toMatchObject({ status: RefundStatus.PENDING_MANUAL, automated: false });
    expect(refund?.acquirerErrorMessage).not.toBe("");
    const queue = await client.listManualRefunds({});
    expect(queue.refunds.map((r) => r.id)).toContain(refund!.id);
    expect(await reasonOf(client.resolveManualRefund({ refundId: refund!.id }))).toBe("VALIDATION_ERROR");
    const resolved = await client.resolveManualRefund({
      refundId: refund!.id,
      outcome: ManualOutcome.FAILED,
      note: "double refund",
    });
    expect(resolved.refund).toMatchObject({ status: RefundStatus.FAILED, resolutionNote: "double refund" });
    expect(await h.deps.ledger.refundedMinor(s.sessionId)).toBe(0n);
  });
});
