import { GatewayError } from "@gateway/platform";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listDeliveries } from "../../src/app/list-deliveries.js";
import { firstAttemptId } from "../../src/app/record-session-event.js";
import { bulkResendDeliveries, resendDelivery } from "../../src/app/resend-deliveries.js";
import { type DeliveryHarness, deliveryHarness, HOUR } from "../support/delivery-harness.js";
import { eventFacts, newScope } from "../support/fixtures.js";

async function violationsOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    if (err instanceof GatewayError)
      return { reason: err.reason, fields: err.violations.map((v) => v.field) };
    throw err;
  }
  throw new Error("expected a GatewayError");
}

describe("resend and history", () => {
  let h: DeliveryHarness;
  beforeEach(async () => {
    // No retries: a failure is final, so the tests control what is latest.
    h = await deliveryHarness({ settings: { retryScheduleMs: [] } });
  });
  afterEach(async () => {
    await h.close();
  });

  it("when a bulk resend asks for FAILED, then only events whose latest attempt failed go again, once", async () => {
    const scope = newScope();
    await h.setEndpoint(scope);
    const ok = eventFacts("session.succeeded", { scope });
    await h.record(ok);
    await h.dispatcher.dispatchDue();
    h.receiver.handle((_req, res) => {
      res.statusCode = 500;
      res.end();
    });
    const failedThenFixed = eventFacts("session.failed", { scope });
    const failed = eventFacts("session.failed", { scope });
    const otherType = eventFacts("session.expired", { scope });
    for (const e of [failedThenFixed, failed, otherType]) await h.record(e);
    await h.dispatcher.dispatchDue();
    h.receiver.handle((_req, res) => res.end("ok"));
    await resendDelivery({ stores: h.stores, clock: h.clock }, firstAttemptId(failedThenFixed.eventId));
    await h.dispatcher.dispatchDue();
    h.clock.advance(1_000);

    const deps = { stores: h.stores, clock: h.clock };
    expect(
      (await bulkResendDeliveries(deps, scope, { status: "FAILED", event: "session.failed" })).resent,
    ).toBe(1);
    await h.dispatcher.dispatchDue();
    expect((await h.history(failed.eventId)).map((a) => a.status).sort()).toEqual(["FAILED", "SUCCEEDED"]);
    // The resends are newer than the call: repeating it finds nothing left.
    expect(
      (await bulkResendDeliveries(deps, scope, { status: "FAILED", event: "session.failed" })).resent,
    ).toBe(0);
    expect((await bulkResendDeliveries(deps, scope, { status: "FAILED" })).resent).toBe(1);
    expect((await bulkResendDeliveries(deps, newScope(), {})).resent).toBe(0);
  });

  it("when the store is slow, then a bulk call stops after its time budget and repeated calls resend every event exactly once", async () => {
    const scope = newScope();
    await h.setEndpoint(scope);
    const events = Array.from({ length: 40 }, () => eventFacts("session.succeeded", { scope }));
    for (const e of events) await h.record(e);
    await h.dispatcher.dispatchDue();
    h.clock.advance(1_000);
    const deliveries = h.stores.deliveries;
    const slow = Object.assign(Object.create(deliveries), {
      latestForEvent: async (eventId: string) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return deliveries.latestForEvent(eventId);
      },
    });
    const deps = { stores: { ...h.stores, deliveries: slow }, clock: h.clock, bulkTimeBudgetMs: 60 };
    const calls: number[] = [];
    for (let round = 0; round < 40; round++) {
      const began = Date.now();
      const { resent } = await bulkResendDeliveries(deps, scope, {});
      // The budget, plus the sends already started when it ran out (two slow reads each).
      expect(Date.now() - began).toBeLessThan(1_000);
      if (resent === 0) break;
      calls.push(resent);
    }
    expect(calls.length).toBeGreaterThan(1);
    expect(calls.reduce((a, b) => a + b, 0)).toBe(40);
    for (const e of events)
      expect((await h.history(e.eventId)).map((a) => a.trigger).sort()).toEqual(["initial", "resend"]);
  });

  it("when repeated calls pass on the cutoff of the first, then time passing between them resends each event once", async () => {
    const scope = newScope();
    await h.setEndpoint(scope);
    const events = Array.from({ length: 5 }, () => eventFacts("session.succeeded", { scope }));
    for (const e of events) await h.record(e);
    await h.dispatcher.dispatchDue();
    h.clock.advance(1_000);
    const deps = { stores: h.stores, clock: h.clock };

    const first = await bulkResendDeliveries(deps, scope, {});
    expect(first.resent).toBe(5);
    await h.dispatcher.dispatchDue();
    h.clock.advance(60_000);
    // A repeat keeps the first call's cutoff: the resends it queued are newer, so they never match.
    expect(await bulkResendDeliveries(deps, scope, { createdLte: first.createdLte })).toEqual({
      resent: 0,
      createdLte: first.createdLte,
    });
    for (const e of events)
      expect((await h.history(e.eventId)).map((a) => a.trigger).sort()).toEqual(["initial", "resend"]);
  });

  it("when a bulk resend has a time range, then only attempts created inside it count", async () => {
    const scope = newScope();
    await h.setEndpoint(scope);
    const early = eventFacts("session.succeeded", { scope });
    await h.record(early);
    h.clock.advance(HOUR);
    const late = eventFacts("session.succeeded", { scope });
    await h.record(late);
    await h.dispatcher.dispatchDue();
    const t0 = new Date(Date.UTC(2026, 0, 1, 12, 0, 0));
    const deps = { stores: h.stores, clock: h.clock };
    expect(
      (await bulkResendDeliveries(deps, scope, { createdLte: new Date(t0.getTime() + 1000) })).resent,
    ).toBe(1);
    expect((await h.history(early.eventId)).length).toBe(2);
    expect((await h.history(late.eventId)).length).toBe(1);
    expect(
      await violationsOf(
        bulkResendDeliveries(deps, scope, { createdGte: new Date(t0.getTime() + 1), createdLte: t0 }),
      ),
    ).toEqual({
      reason: "VALIDATION_ERROR",
      fields: ["created_gte"],
    });
  });

  it("when a merchant resends with its scope, then only its own account and mode's deliveries are found", async () => {
    const scope = newScope();
    await h.setEndpoint(scope);
    const event = eventFacts("session.succeeded", { scope });
    await h.record(event);
    const deps = { stores: h.stores, clock: h.clock };
    const id = firstAttemptId(event.eventId);
    for (const stranger of [newScope(), { ...scope, livemode: !scope.livemode }])
      expect(await violationsOf(resendDelivery(deps, id, stranger))).toEqual({
        reason: "NOT_FOUND",
        fields: [],
      });
    expect(await h.history(event.eventId)).toHaveLength(1);
    const resent = await resendDelivery(deps, id, scope);
    expect(resent).toMatchObject({ eventId: event.eventId, attemptNumber: 2, status: "PENDING" });
  });

  it("when an unknown delivery is resent, then it is not found", async () => {
    expect(await violationsOf(resendDelivery({ stores: h.stores, clock: h.clock }, "whd_nope"))).toEqual({
      reason: "NOT_FOUND",
      fields: [],
    });
    expect(await violationsOf(resendDelivery({ stores: h.stores, clock: h.clock }, ""))).toEqual({
      reason: "VALIDATION_ERROR",
      fields: ["delivery_id"],
    });
  });

  it("when an account pages through its history, then it is newest first and never shows another account's attempts", async () => {
    const scope = newScope();
    const stranger = newScope();
    await h.setEndpoint(scope);
    await h.setEndpoint(stranger);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const facts = eventFacts("session.succeeded", { scope, sessionId: i < 3 ? "ps_first" : "ps_second" });
      await h.record(facts);
      ids.push(firstAttemptId(facts.eventId));
      h.clock.advance(1_000);
    }
    const strangerEvent = eventFacts("session.succeeded", { scope: stranger });
    await h.record(strangerEvent);
    await h.dispatcher.dispatchDue();

    const page1 = await listDeliveries(h.stores.deliveries, scope, { filter: {}, limit: 2 });
    expect(page1.deliveries.map((d) => d.id)).toEqual([ids[4], ids[3]]);
    expect(page1.nextCursor).toBe(ids[3]);
    const page2 = await listDeliveries(h.stores.deliveries, scope, {
      filter: {},
      limit: 2,
      startingAfter: page1.nextCursor,
    });
    expect(page2.deliveries.map((d) => d.id)).toEqual([ids[2], ids[1]]);
    const last = await listDeliveries(h.stores.deliveries, scope, {
      filter: {},
      limit: 2,
      startingAfter: page2.nextCursor,
    });
    expect(last).toEqual({ deliveries: [expect.objectContaining({ id: ids[0] })], hasMore: false });
    expect(
      (
        await listDeliveries(h.stores.deliveries, scope, { filter: { sessionId: "ps_first" } })
      ).deliveries.map((d) => d.id),
    ).toEqual([ids[2], ids[1], ids[0]]);
    expect(
      (await listDeliveries(h.stores.deliveries, scope, { filter: { status: "FAILED" } })).deliveries,
    ).toEqual([]);

    expect(
      await violationsOf(
        listDeliveries(h.stores.deliveries, scope, {
          filter: {},
          startingAfter: firstAttemptId(strangerEvent.eventId),
        }),
      ),
    ).toEqual({
      reason: "VALIDATION_ERROR",
      fields: ["starting_after"],
    });
    expect(
      await violationsOf(listDeliveries(h.stores.deliveries, scope, { filter: {}, limit: 101 })),
    ).toEqual({ reason: "VALIDATION_ERROR", fields: ["limit"] });
  });
});
