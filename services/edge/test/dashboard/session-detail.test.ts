import { create } from "@bufbuild/protobuf";
import { createClient, createRouterTransport } from "@connectrpc/connect";
import { createLogger, errorDetailInterceptor, ManualClock } from "@gateway/platform";
import {
  AccountScopeSchema,
  AttemptStatus,
  RefundService,
  RefundType,
  SessionRefundsService,
  SessionService,
  SessionStatus,
  WebhookService,
} from "@gateway/proto";
import { describe, expect, it } from "vitest";
import { loadSessionDetail } from "../../src/dashboard/payments/session-detail.js";
import { FakeRefundsService } from "../fakes/fake-refunds-service.js";
import { FakeWebhooksService } from "../fakes/fake-webhooks-service.js";
import { SessionsUnderTest } from "../fakes/sessions-under-test.js";

function wired() {
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 10));
  const sessions = new SessionsUnderTest(clock, createLogger({ service: "sessions", level: "silent" }));
  const refunds = new FakeRefundsService(clock, (scope, id) => sessions.find(scope, id));
  const webhooks = new FakeWebhooksService(clock);
  const transport = (register: Parameters<typeof createRouterTransport>[0], domain: string) =>
    createRouterTransport(register, { router: { interceptors: [errorDetailInterceptor(domain)] } });
  const refundsTransport = transport((router) => {
    router.service(RefundService, refunds);
    router.service(SessionRefundsService, refunds.sessionRefundsHandlers());
  }, "refunds.gateway");
  return {
    clock,
    sessions,
    refunds,
    webhooks,
    clients: {
      sessions: createClient(SessionService, sessions.transport()),
      webhooks: createClient(
        WebhookService,
        transport((r) => r.service(WebhookService, webhooks), "webhooks.gateway"),
      ),
      sessionRefunds: createClient(SessionRefundsService, refundsTransport),
      refunds: createClient(RefundService, refundsTransport),
    },
  };
}

const scope = create(AccountScopeSchema, { merchantId: "mer_detail", livemode: false });

describe("the dashboard's session detail", () => {
  it("when a paid session has a delivery and two refunds, then its attempt, delivery and refunds come together, the manual one waiting on the acquirer", async () => {
    const t = wired();
    const { session } = await t.clients.sessions.createSession({
      scope,
      merchantReference: "d-1",
      amount: "100.000",
    });
    const stored = await t.sessions.pay(session!.id);
    const paidAttempt = stored.attempts[0]!.id;
    const delivery = t.webhooks.addDelivery(scope, { sessionId: stored.id });
    t.webhooks.addDelivery(scope, {});
    await t.clients.refunds.createRefund({
      scope,
      sessionId: stored.id,
      refundType: RefundType.PARTIAL,
      amount: "10.500",
    });
    t.refunds.acquirerFailure = "Order already refunded";
    await t.clients.refunds.createRefund({ scope, sessionId: stored.id, refundType: RefundType.FULL });

    const detail = await loadSessionDetail(t.clients, scope, stored.id);
    expect(detail?.session.status).toBe(SessionStatus.SUCCEEDED);
    expect(detail?.attempts.map((a) => [a.id, a.status])).toEqual([[paidAttempt, AttemptStatus.SUCCEEDED]]);
    expect(detail?.deliveries).toEqual([delivery]);
    expect(detail?.refunds).toMatchObject([
      { type: "PARTIAL", amount: "10.500", currency: "TND", state: "succeeded", acquirerMessage: "" },
      {
        type: "FULL",
        amount: "89.500",
        state: "waiting_on_acquirer",
        acquirerMessage: "Order already refunded",
      },
    ]);
  });

  it("when the session is another merchant's or unknown, then there is no detail (the page's 404)", async () => {
    const t = wired();
    const { session } = await t.clients.sessions.createSession({
      scope,
      merchantReference: "d-2",
      amount: "1.000",
    });
    const stranger = create(AccountScopeSchema, { merchantId: "mer_other", livemode: false });
    expect(await loadSessionDetail(t.clients, stranger, session!.id)).toBeUndefined();
    expect(await loadSessionDetail(t.clients, scope, "ps_unknown")).toBeUndefined();
  });

  it("when webhooks or refunds are not wired, then the detail says unavailable rather than none", async () => {
    const t = wired();
    const { session } = await t.clients.sessions.createSession({
      scope,
      merchantReference: "d-3",
      amount: "1.000",
    });
    const detail = await loadSessionDetail({ sessions: t.clients.sessions }, scope, session!.id);
    expect(detail).toMatchObject({ deliveries: "unavailable", refunds: "unavailable", attempts: [] });
  });
});
