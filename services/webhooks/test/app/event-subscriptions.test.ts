import { ManualClock } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { createMemoryWebhooksStores } from "../../src/adapters/memory/create-memory-webhooks-stores.js";
import { recordRefundEvent } from "../../src/app/record-refund-event.js";
import { setEndpoint, setSubscriptions } from "../../src/app/webhook-endpoints.js";
import { isSubscribed, readSubscriptions } from "../../src/domain/event-subscriptions.js";
import { newScope, refundEventFacts } from "../support/fixtures.js";

describe("event subscriptions", () => {
  it("by default sends the session events only; refund.* and late payments are opt-in, test events always go", () => {
    const defaults = ["session.succeeded", "session.failed", "session.expired", "checkout.session.expired"];
    for (const event of defaults) expect(isSubscribed(defaults, event)).toBe(true);
    for (const event of ["refund.succeeded", "refund.failed", "session.late_payment_returned"])
      expect(isSubscribed(defaults, event)).toBe(false);
    expect(isSubscribed(["refund.*"], "refund.failed")).toBe(true);
    expect(isSubscribed(["refund.*"], "session.succeeded")).toBe(false);
    expect(isSubscribed([], "webhook.test")).toBe(true);
  });

  it("accepts known event types and refund.*, once each, and names every unknown one", () => {
    expect(readSubscriptions(["refund.*", "session.failed", "refund.*"])).toEqual({
      ok: true,
      events: ["refund.*", "session.failed"],
    });
    const bad = readSubscriptions(["session.succeeded", "payment.*", "webhook.test"]);
    expect(bad.ok ? [] : bad.violations.map((v) => v.field)).toEqual([
      "enabled_events[1]",
      "enabled_events[2]",
    ]);
  });

  it("when the account has not subscribed to refunds, then a refund event is kept but no delivery is queued; once subscribed, it is", async () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 1, 10));
    const stores = createMemoryWebhooksStores();
    const scope = newScope();
    await setEndpoint({ endpoints: stores.endpoints, clock }, scope, "https://shop.example/hooks");
    const ignored = refundEventFacts("refund.succeeded", { scope });
    await recordRefundEvent({ stores, clock }, ignored);
    expect(await stores.events.findById(ignored.eventId)).toBeDefined();
    expect(
      (await stores.deliveries.list(scope, { eventId: ignored.eventId }, { limit: 10 })).deliveries,
    ).toEqual([]);

    await setSubscriptions({ endpoints: stores.endpoints, clock }, scope, ["refund.*"]);
    const wanted = refundEventFacts("refund.succeeded", { scope });
    await recordRefundEvent({ stores, clock }, wanted);
    const queued = (await stores.deliveries.list(scope, { eventId: wanted.eventId }, { limit: 10 }))
      .deliveries;
    expect(queued.map((d) => [d.event, d.status])).toEqual([["refund.succeeded", "PENDING"]]);
  });
});
