import { GatewayError, ManualClock, newId } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { InMemoryPaidSessionLookup } from "../../src/adapters/memory/in-memory-paid-session-lookup.js";
import { InMemoryPaidSessionStore } from "../../src/adapters/memory/in-memory-paid-session-store.js";
import { confirmPaidSession } from "../../src/app/confirm-paid-session.js";
import { learnPaidSession } from "../../src/app/learn-paid-session.js";
import type { PaidSession } from "../../src/domain/refund-rules.js";
import { paidSessionFixture } from "../contracts/paid-session-store.contract.js";
import { captureLogger } from "../support/capture-logger.js";
import { errorOf } from "../support/reason-of.js";

function setup() {
  const sessions = new InMemoryPaidSessionLookup();
  const paidSessions = new InMemoryPaidSessionStore();
  const clock = new ManualClock(new Date(Date.UTC(2026, 2, 1)));
  const { logger, lines } = captureLogger();
  const scope = { merchantId: newId("mer"), livemode: false };
  const sessionId = newId("ps");
  const session: PaidSession = {
    status: "SUCCEEDED",
    amountMinor: 42_000n,
    currency: "TND",
    acquirerOrderId: "ord-42",
    merchantReference: "order-42",
    orderNumber: "GW-42",
    webhookUrl: "https://shop.example/hooks",
  };
  sessions.put(scope, sessionId, session);
  /** What the session.succeeded event of this session says. */
  const learned = paidSessionFixture({
    scope,
    sessionId,
    amountMinor: 42_000n,
    acquirerOrderId: "ord-42",
    merchantReference: "order-42",
    orderNumber: "GW-42",
  });
  return {
    deps: { sessions, paidSessions, clock, logger },
    lines,
    scope,
    sessionId,
    session,
    learned,
    paidSessions,
    sessions,
  };
}

describe("the paid amount of the session to refund", () => {
  it("when the session.succeeded event was recorded and the sessions service agrees, then the recorded payment is used", async () => {
    const t = setup();
    await learnPaidSession({ paidSessions: t.paidSessions, logger: t.deps.logger }, t.learned);
    const confirmed = await confirmPaidSession(t.deps, t.scope, t.sessionId);
    expect(confirmed.record).toEqual(t.learned);
    expect(confirmed.session.acquirerOrderId).toBe("ord-42");
  });

  it("when the event has not arrived yet, then the sessions service's answer is used and recorded, and the late event finds it", async () => {
    const t = setup();
    const confirmed = await confirmPaidSession(t.deps, t.scope, t.sessionId);
    expect(confirmed.record).toMatchObject({
      source: "sessions_service",
      amountMinor: 42_000n,
      currency: "TND",
      acquirerOrderId: "ord-42",
      webhookUrl: "https://shop.example/hooks",
      recordedAt: t.deps.clock.now(),
    });
    expect(await t.paidSessions.find(t.scope, t.sessionId)).toEqual(confirmed.record);
    await learnPaidSession({ paidSessions: t.paidSessions, logger: t.deps.logger }, t.learned);
    expect((await t.paidSessions.find(t.scope, t.sessionId))?.source).toBe("sessions_service");
    expect(t.lines.join("")).not.toMatch(/disagrees/);
  });

  it.each([
    ["amount", { amountMinor: 42_001n }],
    ["currency", { currency: "EUR" }],
    ["acquirer order", { acquirerOrderId: "ord-other" }],
  ])(
    "when the recorded %s disagrees with the sessions service, then the refund is refused as retryable and operators are told",
    async (_what, change) => {
      const t = setup();
      await t.paidSessions.record({ ...t.learned, ...change });
      const err = await errorOf(() => confirmPaidSession(t.deps, t.scope, t.sessionId));
      expect(err.reason).toBe("SERVICE_UNAVAILABLE");
      expect(err.message).toBe("The session's payment could not be confirmed; retry the refund later.");
      const logged = t.lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.level === 50);
      expect(logged).toMatchObject({
        sessionId: t.sessionId,
        recordedFrom: "session_event",
        disagreement: expect.any(String),
      });
    },
  );

  it("when the session was recorded under another account, then it is a disagreement, never a refund", async () => {
    const t = setup();
    await t.paidSessions.record({ ...t.learned, scope: { merchantId: newId("mer"), livemode: false } });
    expect((await errorOf(() => confirmPaidSession(t.deps, t.scope, t.sessionId))).reason).toBe(
      "SERVICE_UNAVAILABLE",
    );
  });

  it("when the sessions service does not know the session in this scope, then NOT_FOUND even if a payment was recorded", async () => {
    const t = setup();
    await learnPaidSession({ paidSessions: t.paidSessions, logger: t.deps.logger }, t.learned);
    expect(
      (await errorOf(() => confirmPaidSession(t.deps, { ...t.scope, livemode: true }, t.sessionId))).reason,
    ).toBe("NOT_FOUND");
  });

  it("when the sessions service says the session did not succeed, then INVALID_STATE and nothing is recorded", async () => {
    const t = setup();
    t.sessions.put(t.scope, t.sessionId, { ...t.session, status: "CANCELED" });
    expect((await errorOf(() => confirmPaidSession(t.deps, t.scope, t.sessionId))).reason).toBe(
      "INVALID_STATE",
    );
    expect(await t.paidSessions.find(t.scope, t.sessionId)).toBeUndefined();
  });

  it("when the sessions service is unreachable, then its retryable error reaches the caller", async () => {
    const t = setup();
    const deps = {
      ...t.deps,
      sessions: { find: async () => Promise.reject(new GatewayError("SERVICE_UNAVAILABLE", "down")) },
    };
    expect((await errorOf(() => confirmPaidSession(deps, t.scope, t.sessionId))).reason).toBe(
      "SERVICE_UNAVAILABLE",
    );
  });

  it("when a session.succeeded event disagrees with an earlier record, then the record stays and the disagreement is logged", async () => {
    const t = setup();
    await confirmPaidSession(t.deps, t.scope, t.sessionId);
    await learnPaidSession(
      { paidSessions: t.paidSessions, logger: t.deps.logger },
      { ...t.learned, amountMinor: 1n },
    );
    expect((await t.paidSessions.find(t.scope, t.sessionId))?.amountMinor).toBe(42_000n);
    expect(t.lines.some((l) => l.includes("disagrees with the payment already recorded"))).toBe(true);
  });
});
