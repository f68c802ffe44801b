import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { firstAttemptId } from "../../src/app/record-session-event.js";
import { resendDelivery } from "../../src/app/resend-deliveries.js";
import type { Delivery } from "../../src/domain/delivery.js";
import { NO_ENDPOINT_MESSAGE } from "../../src/domain/delivery-target.js";
import { type DeliveryHarness, deliveryHarness, HOUR, MINUTE } from "../support/delivery-harness.js";
import { eventFacts, newScope } from "../support/fixtures.js";

const byAttempt = (rows: Delivery[]) => [...rows].sort((a, b) => a.attemptNumber - b.attemptNumber);

function signatureValues(header: string | string[] | undefined): string[] {
  return String(header)
    .split(",")
    .filter((part) => part.startsWith("v1="));
}

describe("delivering an event", () => {
  let h: DeliveryHarness;
  beforeEach(async () => {
    h = await deliveryHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it("when the endpoint answers 2xx, then it gets one signed POST with the spec headers and the stored bytes, recorded SUCCEEDED", async () => {
    const scope = newScope();
    const secret = await h.setEndpoint(scope);
    expect(secret).toMatch(/^whsec_/);
    const facts = eventFacts("session.succeeded", { scope });
    await h.record(facts);
    expect(await h.dispatcher.dispatchDue()).toBe(1);

    expect(h.receiver.requests).toHaveLength(1);
    const request = h.receiver.requests[0]!;
    expect(request.method).toBe("POST");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["x-service-webhook-id"]).toBe(facts.eventId);
    expect(request.headers["x-service-event"]).toBe("session.succeeded");
    expect(request.headers["x-service-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(request.headers["webhook-id"]).toBe(facts.eventId);
    expect(h.verifies(request, secret!)).toBe(true);
    expect(h.verifiesStandard(request, secret!)).toBe(true);
    const stored = await h.stores.events.findById(facts.eventId);
    expect(request.body.toString("utf8")).toBe(stored?.body);
    expect(JSON.parse(request.body.toString("utf8")).data.id).toBe(facts.session.id);

    const [attempt] = await h.history(facts.eventId);
    expect(attempt).toMatchObject({
      status: "SUCCEEDED",
      attemptNumber: 1,
      url: h.receiver.url,
      httpStatusCode: 200,
      sessionId: facts.session.id,
    });
    expect(attempt?.responseTimeMs).toEqual(expect.any(Number));
    expect(attempt?.errorMessage).toBeUndefined();
    expect(attempt?.nextRetryAt).toBeUndefined();
    expect(h.logLines.join("\n")).not.toContain("whsec_");
  });

  it("when the receiver keeps failing, then it is retried 1 min, 2 h and 24 h after each failure, with the same bytes and id, and then no more", async () => {
    const scope = newScope();
    await h.setEndpoint(scope);
    h.receiver.handle((_req, res) => {
      res.statusCode = 500;
      res.end("boom");
    });
    const facts = eventFacts("session.failed", { scope });
    await h.record(facts);
    await h.dispatcher.dispatchDue();

    for (const wait of [MINUTE, 2 * HOUR, 24 * HOUR]) {
      h.clock.advance(wait - 1);
      expect(await h.dispatcher.dispatchDue()).toBe(0);
      h.clock.advance(1);
      expect(await h.dispatcher.dispatchDue()).toBe(1);
    }
    h.clock.advance(48 * HOUR);
    expect(await h.dispatcher.dispatchDue()).toBe(0);

    expect(h.receiver.requests).toHaveLength(4);
    expect(new Set(h.receiver.requests.map((r) => r.body.toString("hex"))).size).toBe(1);
    expect(new Set(h.receiver.requests.map((r) => r.headers["x-service-webhook-id"]))).toEqual(
      new Set([facts.eventId]),
    );
    expect(new Set(h.receiver.requests.map((r) => r.headers["x-service-signature"])).size).toBe(4);

    const attempts = byAttempt(await h.history(facts.eventId));
    expect(attempts.map((a) => [a.attemptNumber, a.status, a.httpStatusCode, a.errorMessage])).toEqual([
      [1, "FAILED", 500, "Receiver answered HTTP 500 Internal Server Error"],
      [2, "FAILED", 500, "Receiver answered HTTP 500 Internal Server Error"],
      [3, "FAILED", 500, "Receiver answered HTTP 500 Internal Server Error"],
      [4, "FAILED", 500, "Receiver answered HTTP 500 Internal Server Error"],
    ]);
    const t0 = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(attempts.map((a) => a.nextRetryAt?.getTime())).toEqual([
      t0 + MINUTE,
      t0 + MINUTE + 2 * HOUR,
      t0 + MINUTE + 26 * HOUR,
      undefined,
    ]);
    expect(attempts.map((a) => a.trigger)).toEqual(["initial", "retry", "retry", "retry"]);
  });

  it("when a retry is scheduled, then the history shows it PENDING with its time until it is sent", async () => {
    const scope = newScope();
    await h.setEndpoint(scope);
    h.receiver.handle((_req, res) => res.socket?.destroy());
    const facts = eventFacts("session.failed", { scope });
    await h.record(facts);
    await h.dispatcher.dispatchDue();
    const [first, retry] = byAttempt(await h.history(facts.eventId));
    expect(first).toMatchObject({ status: "FAILED", errorMessage: "Connection reset by the receiver" });
    expect(first?.httpStatusCode).toBeUndefined();
    expect(retry).toMatchObject({
      status: "PENDING",
      attemptNumber: 2,
      trigger: "retry",
      nextRetryAt: first?.nextRetryAt,
      url: h.receiver.url,
    });
    h.receiver.handle((_req, res) => res.end("ok"));
    h.clock.advance(MINUTE);
    await h.dispatcher.dispatchDue();
    const done = (await h.stores.deliveries.findById(retry!.id))!;
    expect(done).toMatchObject({ status: "SUCCEEDED", httpStatusCode: 200 });
    expect(done.nextRetryAt).toBeUndefined();
  });

  it("when the receiver asks for a longer Retry-After, then the retry waits that long; a shorter one changes nothing", async () => {
    const scope = newScope();
    await h.setEndpoint(scope);
    let retryAfter = "300";
    h.receiver.handle((_req, res) => {
      res.statusCode = 503;
      res.setHeader("retry-after", retryAfter);
      res.end();
    });
    const facts = eventFacts("session.failed", { scope });
    await h.record(facts);
    await h.dispatcher.dispatchDue();
    const t0 = h.clock.now().getTime();
    expect(byAttempt(await h.history(facts.eventId))[0]?.nextRetryAt?.getTime()).toBe(t0 + 5 * MINUTE);
    h.clock.advance(MINUTE);
    expect(await h.dispatcher.dispatchDue()).toBe(0);
    h.clock.advance(4 * MINUTE);
    retryAfter = "10";
    expect(await h.dispatcher.dispatchDue()).toBe(1);
    expect(byAttempt(await h.history(facts.eventId))[1]?.nextRetryAt?.getTime()).toBe(
      t0 + 5 * MINUTE + 2 * HOUR,
    );
  });

  it("when the receiver answers 410 Gone, then retries stop and the account endpoint is disabled until it is set again", async () => {
    const scope = newScope();
    await h.setEndpoint(scope);
    h.receiver.handle((_req, res) => {
      res.statusCode = 410;
      res.end();
    });
    const gone = eventFacts("session.succeeded", { scope });
    await h.record(gone);
    const goneAt = h.clock.now();
    await h.dispatcher.dispatchDue();
    h.clock.advance(48 * HOUR);
    expect(await h.dispatcher.dispatchDue()).toBe(0);
    const [attempt] = await h.history(gone.eventId);
    expect(attempt).toMatchObject({
      status: "FAILED",
      httpStatusCode: 410,
      errorMessage: "Receiver answered HTTP 410 Gone: endpoint removed",
    });
    expect(attempt?.nextRetryAt).toBeUndefined();
    expect((await h.stores.endpoints.find(scope))?.disabledAt).toEqual(goneAt);

    const later = eventFacts("session.expired", { scope });
    await h.record(later);
    await h.dispatcher.dispatchDue();
    expect(h.receiver.requests).toHaveLength(1);
    expect((await h.history(later.eventId))[0]?.errorMessage).toMatch(
      /disabled after the receiver answered 410 Gone.*set the endpoint again/,
    );

    h.receiver.handle((_req, res) => res.end("ok"));
    await h.setEndpoint(scope);
    const third = eventFacts("session.expired", { scope });
    await h.record(third);
    await h.dispatcher.dispatchDue();
    expect((await h.history(third.eventId))[0]?.status).toBe("SUCCEEDED");
  });

  it("when a session's own webhook_url answers 410, then that chain stops but the account endpoint stays enabled", async () => {
    const scope = newScope();
    await h.setEndpoint(scope, "https://account.example.tn/hooks");
    h.receiver.handle((_req, res) => {
      res.statusCode = 410;
      res.end();
    });
    const facts = eventFacts("session.succeeded", { scope, webhookUrl: h.receiver.url });
    await h.record(facts);
    await h.dispatcher.dispatchDue();
    expect((await h.history(facts.eventId))[0]).toMatchObject({
      status: "FAILED",
      httpStatusCode: 410,
      url: h.receiver.url,
    });
    expect((await h.stores.endpoints.find(scope))?.disabledAt).toBeUndefined();
  });

  it("when the secret was rotated, then deliveries carry two v1 signatures that both verify until the overlap ends", async () => {
    const scope = newScope();
    const oldSecret = (await h.setEndpoint(scope))!;
    const newSecret = await h.rotate(scope);
    const during = eventFacts("session.succeeded", { scope });
    await h.record(during);
    await h.dispatcher.dispatchDue();
    const request = h.receiver.requests[0]!;
    expect(signatureValues(request.headers["x-service-signature"])).toHaveLength(2);
    expect(h.verifies(request, newSecret)).toBe(true);
    expect(h.verifies(request, oldSecret)).toBe(true);
    expect(h.verifiesStandard(request, newSecret)).toBe(true);
    expect(h.verifiesStandard(request, oldSecret)).toBe(true);

    h.clock.advance(24 * HOUR);
    const after = eventFacts("session.expired", { scope });
    await h.record(after);
    await h.dispatcher.dispatchDue();
    const later = h.receiver.requests[1]!;
    expect(signatureValues(later.headers["x-service-signature"])).toHaveLength(1);
    expect(h.verifies(later, newSecret)).toBe(true);
    expect(h.verifies(later, oldSecret)).toBe(false);
  });

  it("when a delivery is resent, then it keeps the webhook id and bytes, is signed with the current secret and continues the attempt numbers", async () => {
    const scope = newScope();
    const oldSecret = (await h.setEndpoint(scope))!;
    const facts = eventFacts("session.succeeded", { scope });
    await h.record(facts);
    await h.dispatcher.dispatchDue();
    const newSecret = await h.rotate(scope);
    h.clock.advance(25 * HOUR);

    let woken = 0;
    const resend = await resendDelivery(
      { stores: h.stores, clock: h.clock, wake: () => (woken += 1) },
      firstAttemptId(facts.eventId),
    );
    expect(woken).toBe(1);
    expect(resend).toMatchObject({
      status: "PENDING",
      attemptNumber: 2,
      trigger: "resend",
      eventId: facts.eventId,
      url: h.receiver.url,
    });
    expect(resend.id).not.toBe(firstAttemptId(facts.eventId));
    await h.dispatcher.dispatchDue();

    const [first, second] = h.receiver.requests;
    expect(second?.headers["x-service-webhook-id"]).toBe(facts.eventId);
    expect(second?.body.equals(first!.body)).toBe(true);
    expect(h.verifies(second!, newSecret)).toBe(true);
    expect(h.verifies(second!, oldSecret)).toBe(false);
    expect((await h.stores.deliveries.findById(resend.id))?.status).toBe("SUCCEEDED");
  });

  it("when a resend fails, then it is recorded and not retried automatically", async () => {
    const scope = newScope();
    await h.setEndpoint(scope);
    const facts = eventFacts("session.succeeded", { scope });
    await h.record(facts);
    await h.dispatcher.dispatchDue();
    h.receiver.handle((_req, res) => {
      res.statusCode = 502;
      res.end();
    });
    const resend = await resendDelivery({ stores: h.stores, clock: h.clock }, firstAttemptId(facts.eventId));
    await h.dispatcher.dispatchDue();
    h.clock.advance(48 * HOUR);
    expect(await h.dispatcher.dispatchDue()).toBe(0);
    const stored = await h.stores.deliveries.findById(resend.id);
    expect(stored).toMatchObject({ status: "FAILED", httpStatusCode: 502 });
    expect(stored?.nextRetryAt).toBeUndefined();
  });

  it("when no endpoint is configured, then a FAILED attempt says so, nothing is retried, and a resend after SetEndpoint delivers", async () => {
    const scope = newScope();
    const facts = eventFacts("session.succeeded", { scope });
    await h.record(facts);
    await h.dispatcher.dispatchDue();
    h.clock.advance(48 * HOUR);
    await h.dispatcher.dispatchDue();
    const [attempt] = await h.history(facts.eventId);
    expect(attempt).toMatchObject({ status: "FAILED", url: "", errorMessage: NO_ENDPOINT_MESSAGE });
    expect(attempt?.nextRetryAt).toBeUndefined();
    expect(h.receiver.requests).toHaveLength(0);

    const secret = (await h.setEndpoint(scope))!;
    await resendDelivery({ stores: h.stores, clock: h.clock }, attempt!.id);
    await h.dispatcher.dispatchDue();
    expect(h.receiver.requests).toHaveLength(1);
    expect(h.verifies(h.receiver.requests[0]!, secret)).toBe(true);
  });

  // Issue 13 item 4: this used to fail with "No webhook secret configured" and was never retried.
  it("when only the session has a webhook_url and the account has no secret yet, then a secret is created and the delivery is signed with it", async () => {
    const scope = newScope();
    expect(await h.stores.endpoints.find(scope)).toBeUndefined();
    const facts = eventFacts("session.failed", { scope, webhookUrl: h.receiver.url });
    await h.record(facts);
    await h.dispatcher.dispatchDue();
    expect((await h.history(facts.eventId))[0]).toMatchObject({ status: "SUCCEEDED", url: h.receiver.url });
    const endpoint = await h.stores.endpoints.find(scope);
    expect(endpoint?.url).toBeUndefined();
    expect(h.receiver.requests).toHaveLength(1);
    expect(h.verifies(h.receiver.requests[0]!, endpoint!.secret)).toBe(true);
    expect(h.verifiesStandard(h.receiver.requests[0]!, endpoint!.secret)).toBe(true);
  });

  it("when a session has its own webhook_url, then it wins over the account endpoint and is signed with the account secret", async () => {
    const scope = newScope();
    const secret = (await h.setEndpoint(scope, "https://account.example.tn/hooks"))!;
    const facts = eventFacts("session.failed", { scope, webhookUrl: h.receiver.url });
    await h.record(facts);
    await h.dispatcher.dispatchDue();
    expect(h.receiver.requests).toHaveLength(1);
    expect(h.verifies(h.receiver.requests[0]!, secret)).toBe(true);
  });

  it("when the same event arrives twice, then there is one delivery chain and one POST", async () => {
    const scope = newScope();
    await h.setEndpoint(scope);
    const facts = eventFacts("session.succeeded", { scope });
    expect((await h.record(facts)).firstTime).toBe(true);
    expect((await h.record(facts)).firstTime).toBe(false);
    await h.dispatcher.dispatchDue();
    expect((await h.record(facts)).firstTime).toBe(false);
    await h.dispatcher.dispatchDue();
    expect(h.receiver.requests).toHaveLength(1);
    expect(await h.history(facts.eventId)).toHaveLength(1);
  });
});

describe("delivering with the SSRF guard on", () => {
  it("when the endpoint is on 127.0.0.1, then nothing is sent and the attempt is FAILED with a clear message", async () => {
    const h = await deliveryHarness({ policy: { allowPrivate: false, allowCidrs: [] } });
    try {
      const scope = newScope();
      await h.setEndpoint(scope);
      const facts = eventFacts("session.succeeded", { scope });
      await h.record(facts);
      await h.dispatcher.dispatchDue();
      expect(h.receiver.requests).toHaveLength(0);
      expect((await h.history(facts.eventId)).find((a) => a.attemptNumber === 1)).toMatchObject({
        status: "FAILED",
        // Neutral for the merchant (issue 15 item 4); the address is only in the operator's log.
        errorMessage: "Could not connect to the endpoint",
      });
    } finally {
      await h.close();
    }
  });
});
