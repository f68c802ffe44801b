import { type EventBus, systemClock } from "@gateway/platform";
import { waitFor } from "@gateway/testkit";
import { verifyStandardWebhook, verifyWebhook } from "@gateway/webhook-signature";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSigningWebhookSender } from "../../src/adapters/delivery/signing-webhook-sender.js";
import {
  type AddressPolicy,
  createHttpDeliverer,
  type HttpDeliverer,
} from "../../src/adapters/http/index.js";
import type { WebhooksStores } from "../../src/app/ports.js";
import { firstAttemptId } from "../../src/app/record-session-event.js";
import { bulkResendDeliveries } from "../../src/app/resend-deliveries.js";
import { setEndpoint, setSubscriptions } from "../../src/app/webhook-endpoints.js";
import type { WebhooksSettings } from "../../src/app/webhooks-settings.js";
import type { Delivery } from "../../src/domain/delivery.js";
import type { SessionEventFacts } from "../../src/domain/webhook-event.js";
import { createWebhooksRuntime, type WebhooksRuntime } from "../../src/webhooks-module.js";
import { startReceiver, type TestReceiver } from "../http/test-receiver.js";
import {
  eventFacts,
  newScope,
  publishedEvent,
  publishedRefundEvent,
  refundEventFacts,
} from "../support/fixtures.js";
import { captureLogger } from "../support/silent-logger.js";

/** Where the runtime runs: an event bus, stores, and the subject space the test publishes in. */
export interface RuntimeEnvironment {
  bus: EventBus;
  stores: WebhooksStores;
  subjectPrefix: string;
  durable: string;
  close(): Promise<void>;
}

const SCHEDULE = [50, 100, 200];
const SETTINGS: WebhooksSettings = {
  timeoutMs: 300,
  retryScheduleMs: SCHEDULE,
  secretOverlapMs: 24 * 3600_000,
  pollIntervalMs: 25,
  concurrency: 4,
  leaseMs: 1_000,
};

/**
 * The webhooks runtime end to end: a SessionEvent published on the bus becomes signed POSTs to
 * a real local receiver, with the history to show for it. Run over the in-memory bus and stores
 * (unit) and over JetStream and the MongoDB wire server (integration).
 */
export function runtimeScenarios(name: string, open: () => Promise<RuntimeEnvironment>): void {
  describe(`webhooks runtime: ${name}`, () => {
    let env: RuntimeEnvironment;
    let receiver: TestReceiver;
    const running: Array<{ runtime: WebhooksRuntime; deliverer: HttpDeliverer }> = [];

    beforeEach(async () => {
      env = await open();
      receiver = await startReceiver();
    });
    afterEach(async () => {
      for (const { runtime, deliverer } of running.splice(0)) {
        await runtime.stop({ graceMs: 1_000 });
        deliverer.close();
      }
      await receiver.close();
      await env.close();
    });

    async function startRuntime(
      policy: AddressPolicy = { allowPrivate: true, allowCidrs: [] },
      o: { settings?: Partial<WebhooksSettings>; stores?: WebhooksStores } = {},
    ) {
      const deliverer = createHttpDeliverer(policy);
      const { logger, lines } = captureLogger();
      const runtime = createWebhooksRuntime({
        stores: o.stores ?? env.stores,
        bus: env.bus,
        sender: createSigningWebhookSender(deliverer),
        clock: systemClock,
        logger,
        settings: { ...SETTINGS, ...o.settings },
        subjectPrefix: env.subjectPrefix,
        durable: env.durable,
      });
      await runtime.start();
      const handle = { runtime, deliverer, lines };
      running.push(handle);
      return handle;
    }

    const publish = (facts: SessionEventFacts, messageId?: string) => {
      const message = publishedEvent(facts, env.subjectPrefix);
      return env.bus.publish({ ...message, id: messageId ?? message.id });
    };

    const history = async (facts: SessionEventFacts): Promise<Delivery[]> =>
      (
        await env.stores.deliveries.list(facts.session.scope, { eventId: facts.eventId }, { limit: 100 })
      ).deliveries.sort((a, b) => a.attemptNumber - b.attemptNumber);

    const settled = (facts: SessionEventFacts, attempts: number) =>
      waitFor(
        async () => {
          const rows = await history(facts);
          return rows.length === attempts && rows.every((r) => r.status !== "PENDING") ? rows : undefined;
        },
        { timeoutMs: 15_000, intervalMs: 25, message: `${attempts} settled attempts of ${facts.eventId}` },
      );

    async function endpointFor(facts: SessionEventFacts): Promise<string> {
      const result = await setEndpoint(
        { endpoints: env.stores.endpoints, clock: systemClock },
        facts.session.scope,
        receiver.url,
      );
      return result.secret!;
    }

    it("when a SessionEvent is published, then the endpoint gets exactly one POST with the spec headers, a valid signature and the envelope", async () => {
      await startRuntime();
      const facts = eventFacts("session.succeeded", { scope: newScope(), occurredAt: new Date() });
      const secret = await endpointFor(facts);
      await publish(facts);
      const [attempt] = await settled(facts, 1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.requests).toHaveLength(1);
      const request = receiver.requests[0]!;
      expect(request.headers).toMatchObject({
        "content-type": "application/json",
        "x-service-webhook-id": facts.eventId,
        "x-service-event": "session.succeeded",
        "webhook-id": facts.eventId,
      });
      expect(verifyWebhook(request.body, request.headers, secret)).toMatchObject({
        ok: true,
        webhookId: facts.eventId,
      });
      expect(verifyStandardWebhook(request.body, request.headers, secret).ok).toBe(true);
      const envelope = JSON.parse(request.body.toString("utf8"));
      expect(envelope).toMatchObject({
        id: facts.eventId,
        event: "session.succeeded",
        sequence: facts.sequence,
        data: { id: facts.session.id, amount: "34.000" },
      });
      expect(attempt).toMatchObject({
        status: "SUCCEEDED",
        httpStatusCode: 200,
        attemptNumber: 1,
        url: receiver.url,
      });
    });

    it("when a RefundEvent is published (twice), then the refunded session's endpoint gets one signed refund webhook, listed with the session's deliveries", async () => {
      await startRuntime();
      const scope = newScope();
      const paid = eventFacts("session.succeeded", { scope });
      const refund = refundEventFacts("refund.failed", {
        scope,
        sessionId: paid.session.id,
        occurredAt: new Date(),
      });
      const secret = await endpointFor(paid);
      // Refund events are opt-in (issue 13): the account subscribes to them first.
      await setSubscriptions({ endpoints: env.stores.endpoints, clock: systemClock }, scope, [
        "session.succeeded",
        "refund.*",
      ]);
      await env.bus.publish(publishedRefundEvent(refund, env.subjectPrefix));
      await env.bus.publish({
        ...publishedRefundEvent(refund, env.subjectPrefix),
        id: `${refund.eventId}-republished`,
      });
      const rows = await waitFor(
        async () => {
          const list = (await env.stores.deliveries.list(scope, { eventId: refund.eventId }, { limit: 10 }))
            .deliveries;
          return list.length === 1 && list[0]!.status === "SUCCEEDED" ? list : undefined;
        },
        { timeoutMs: 15_000, intervalMs: 25, message: "the refund webhook to be delivered" },
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.requests).toHaveLength(1);
      const request = receiver.requests[0]!;
      expect(request.headers).toMatchObject({
        "x-service-webhook-id": refund.eventId,
        "x-service-event": "refund.failed",
        "webhook-id": refund.eventId,
      });
      expect(verifyWebhook(request.body, request.headers, secret)).toMatchObject({
        ok: true,
        webhookId: refund.eventId,
      });
      expect(JSON.parse(request.body.toString("utf8"))).toMatchObject({
        id: refund.eventId,
        event: "refund.failed",
        data: {
          refund_id: refund.refund.id,
          session_id: paid.session.id,
          refunded_amount: "12.500",
          automated_refund: false,
          status: "FAILED",
        },
      });
      expect(rows[0]).toMatchObject({
        sessionId: paid.session.id,
        event: "refund.failed",
        url: receiver.url,
        attemptNumber: 1,
      });
      const bySession = await env.stores.deliveries.list(
        scope,
        { sessionId: paid.session.id, event: "refund.failed" },
        { limit: 10 },
      );
      expect(bySession.deliveries.map((d) => d.eventId)).toEqual([refund.eventId]);
    });

    it("when a refund's session has its own webhook_url, then the refund webhook goes there", async () => {
      await startRuntime();
      const scope = newScope();
      const refund = refundEventFacts("refund.succeeded", {
        scope,
        webhookUrl: `${receiver.url}/session-hooks`,
      });
      await setEndpoint(
        { endpoints: env.stores.endpoints, clock: systemClock },
        scope,
        "https://account.example/hooks",
      );
      // Refund events are opt-in (issue 13), for a session's own URL as for the endpoint.
      await setSubscriptions({ endpoints: env.stores.endpoints, clock: systemClock }, scope, [
        "refund.succeeded",
      ]);
      await env.bus.publish(publishedRefundEvent(refund, env.subjectPrefix));
      await waitFor(() => (receiver.requests.length === 1 ? true : undefined), {
        message: "the POST to the session's URL",
      });
      expect(receiver.requests[0]!.headers["x-service-event"]).toBe("refund.succeeded");
      expect(receiver.requests[0]!.path).toBe(new URL(`${receiver.url}/session-hooks`).pathname);
    });

    it.each([
      [
        "500",
        (res: import("node:http").ServerResponse) => ((res.statusCode = 500), res.end()),
        500,
        "Receiver answered HTTP 500 Internal Server Error",
      ],
      ["timeout", () => undefined, undefined, "Request timed out after 300 ms"],
      [
        "connection reset",
        (res: import("node:http").ServerResponse) => res.socket?.destroy(),
        undefined,
        "Connection reset by the receiver",
      ],
      [
        "302",
        (res: import("node:http").ServerResponse) => (
          res.writeHead(302, { location: "https://elsewhere.example/hooks" }), res.end()
        ),
        302,
        "Redirects are not followed (302 to https://elsewhere.example/hooks)",
      ],
    ])(
      "when the receiver fails with %s, then it is retried on the schedule and the history shows every attempt",
      async (_kind, answer, status, message) => {
        await startRuntime();
        receiver.handle((_req, res) => answer(res));
        const facts = eventFacts("session.failed", { scope: newScope() });
        await endpointFor(facts);
        await publish(facts);
        const attempts = await settled(facts, 4);
        expect(receiver.requests).toHaveLength(4);
        expect(attempts.map((a) => [a.attemptNumber, a.status, a.httpStatusCode, a.errorMessage])).toEqual(
          [1, 2, 3, 4].map((n) => [n, "FAILED", status, message]),
        );
        for (const a of attempts) expect(a.responseTimeMs).toEqual(expect.any(Number));
        expect(attempts.slice(0, 3).every((a) => a.nextRetryAt instanceof Date)).toBe(true);
        expect(attempts[3]?.nextRetryAt).toBeUndefined();
        // Each retry waited at least its scheduled time after the failure before it.
        attempts.slice(1).forEach((a, i) => {
          const failedAt = attempts[i]!.completedAt!.getTime();
          expect(a.completedAt!.getTime() - failedAt).toBeGreaterThanOrEqual(SCHEDULE[i]!);
        });
      },
    );

    it("when the same event is published twice, even under another message id, then there is one delivery chain", async () => {
      await startRuntime();
      const facts = eventFacts("session.expired", { scope: newScope() });
      await endpointFor(facts);
      await publish(facts);
      await publish(facts);
      await publish(facts, `${facts.eventId}-replayed`);
      await settled(facts, 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.requests).toHaveLength(1);
      expect(await history(facts)).toHaveLength(1);
    });

    it("when the SSRF guard is on, then a delivery to 127.0.0.1 is recorded FAILED with a clear message", async () => {
      await startRuntime({ allowPrivate: false, allowCidrs: [] });
      const facts = eventFacts("session.succeeded", { scope: newScope() });
      await endpointFor(facts);
      await publish(facts);
      const [first] = await waitFor(async () => {
        const rows = await history(facts);
        return rows[0]?.status === "FAILED" ? rows : undefined;
      });
      // Neutral for the merchant (issue 15 item 4); the address is only in the operator's log.
      expect(first).toMatchObject({ status: "FAILED", errorMessage: "Could not connect to the endpoint" });
      expect(first?.httpStatusCode).toBeUndefined();
      expect(receiver.requests).toHaveLength(0);
    });

    it("when two runtimes share the store and the consumer, then each event is delivered once", async () => {
      await startRuntime();
      await startRuntime();
      receiver.handle((_req, res) => setTimeout(() => res.end("ok"), 15));
      const scope = newScope();
      const events = Array.from({ length: 16 }, () => eventFacts("session.succeeded", { scope }));
      await endpointFor(events[0]!);
      for (const e of events) await publish(e);
      for (const e of events) await settled(e, 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.requests).toHaveLength(16);
      expect(new Set(receiver.requests.map((r) => r.headers["x-service-webhook-id"]))).toEqual(
        new Set(events.map((e) => e.eventId)),
      );
    });

    it("when a runtime stops in the middle of a delivery, then a new one sends it again once the lease runs out and nothing is lost", async () => {
      const first = await startRuntime();
      let hang = true;
      receiver.handle((_req, res) => {
        if (!hang) res.end("ok");
      });
      const facts = eventFacts("session.succeeded", { scope: newScope() });
      await endpointFor(facts);
      await publish(facts);
      await waitFor(() => receiver.requests.length === 1, { message: "the first POST to arrive" });
      // Killed mid-delivery: nothing more is written, the socket goes away.
      await first.runtime.stop({ graceMs: 0 });
      first.deliverer.close();
      expect((await env.stores.deliveries.findById(firstAttemptId(facts.eventId)))?.status).toBe("PENDING");

      hang = false;
      await startRuntime();
      const [attempt] = await settled(facts, 1);
      expect(attempt).toMatchObject({ status: "SUCCEEDED", attemptNumber: 1, httpStatusCode: 200 });
      expect(receiver.requests).toHaveLength(2);
      expect(receiver.requests[1]?.headers["x-service-webhook-id"]).toBe(facts.eventId);
      expect(receiver.requests[1]?.body.equals(receiver.requests[0]!.body)).toBe(true);
    });

    it("when a runtime is stopped with time to finish, then the delivery in flight is completed first", async () => {
      const handle = await startRuntime();
      receiver.handle((_req, res) => setTimeout(() => res.end("ok"), 150));
      const facts = eventFacts("session.succeeded", { scope: newScope() });
      await endpointFor(facts);
      await publish(facts);
      await waitFor(() => receiver.requests.length === 1, { message: "the POST to arrive" });
      await handle.runtime.stop({ graceMs: 5_000 });
      expect((await env.stores.deliveries.findById(firstAttemptId(facts.eventId)))?.status).toBe("SUCCEEDED");
    });

    it("when a payload is not a SessionEvent or has no webhook, then it is never acknowledged as delivered or skipped with a warning, and other events still flow", async () => {
      const handle = await startRuntime();
      await env.bus.publish({
        id: "garbage-1",
        subject: `${env.subjectPrefix}.session.succeeded`,
        data: new Uint8Array([0xff, 0xff, 0xff]),
      });
      const other = eventFacts("session.failed", { scope: newScope() });
      const canceled = {
        ...publishedEvent(
          { ...other, eventId: "evt_canceled", eventType: "session.canceled" as never },
          env.subjectPrefix,
        ),
      };
      await env.bus.publish({ ...canceled, subject: `${env.subjectPrefix}.session.canceled` });
      const facts = eventFacts("session.succeeded", { scope: newScope() });
      await endpointFor(facts);
      await publish(facts);
      await settled(facts, 1);
      await waitFor(() => handle.lines.some((l) => l.includes("cannot be turned into a webhook")), {
        message: "the malformed event to be logged",
      });
      await waitFor(() => handle.lines.some((l) => l.includes("no webhook is defined for this event type")), {
        message: "the skipped event to be logged",
      });
      expect(await env.stores.events.findById("evt_canceled")).toBeUndefined();
    });

    it("when events arrive, then each is POSTed on its event, without a look over the queue per event", async () => {
      let looks = 0;
      const deliveries = env.stores.deliveries;
      const counting: WebhooksStores = {
        ...env.stores,
        deliveries: Object.assign(Object.create(deliveries), {
          claimNextDue: (...args: Parameters<typeof deliveries.claimNextDue>) => {
            looks++;
            return deliveries.claimNextDue(...args);
          },
        }),
      };
      // Polls an hour apart: only the look at start happens while the events flow.
      await startRuntime(undefined, { stores: counting, settings: { pollIntervalMs: 3_600_000 } });
      const scope = newScope();
      const events = Array.from({ length: 10 }, () => eventFacts("session.succeeded", { scope }));
      await endpointFor(events[0]!);
      for (const facts of events) await publish(facts);
      for (const facts of events) expect((await settled(facts, 1))[0]?.status).toBe("SUCCEEDED");
      expect(receiver.requests).toHaveLength(10);
      expect(looks).toBeLessThanOrEqual(2);
    });

    /** The runtime's stores, with every claim that took an attempt (a look, or by id) written down. */
    function countingClaims(): { stores: WebhooksStores; claims: string[] } {
      const claims: string[] = [];
      const deliveries = env.stores.deliveries;
      return {
        claims,
        stores: {
          ...env.stores,
          deliveries: Object.assign(Object.create(deliveries), {
            claimIfDue: async (...args: Parameters<typeof deliveries.claimIfDue>) => {
              const taken = await deliveries.claimIfDue(...args);
              if (taken) claims.push("by id");
              return taken;
            },
            claimDue: async (...args: Parameters<typeof deliveries.claimDue>) => {
              const taken = await deliveries.claimDue(...args);
              for (const _ of taken) claims.push("look");
              return taken;
            },
          }),
        },
      };
    }

    it("when a slot is free as an event arrives, then its first attempt is stored leased to it and sent without any claim", async () => {
      const { stores, claims } = countingClaims();
      await startRuntime(undefined, { stores, settings: { pollIntervalMs: 3_600_000 } });
      const facts = eventFacts("session.succeeded", { scope: newScope() });
      await endpointFor(facts);
      await publish(facts);
      expect((await settled(facts, 1))[0]?.status).toBe("SUCCEEDED");
      expect(claims).toEqual([]);
      expect(receiver.requests).toHaveLength(1);
    });

    it("when events arrive faster than slots free, then their first attempts wait stored leased to the runtime and go out without any claim", async () => {
      const held = holdRequests(receiver);
      const { stores, claims } = countingClaims();
      await startRuntime(undefined, {
        stores,
        settings: { concurrency: 2, pollIntervalMs: 3_600_000, leaseMs: 60_000 },
      });
      const scope = newScope();
      const events = Array.from({ length: 8 }, () => eventFacts("session.succeeded", { scope }));
      await endpointFor(events[0]!);
      for (const facts of events) await publish(facts);
      await waitFor(async () => (await Promise.all(events.map(history))).every((rows) => rows.length === 1), {
        message: "every first attempt stored",
      });
      for (const facts of events) {
        const [first] = await history(facts);
        expect(first?.status).toBe("PENDING");
        expect(first?.claim).toBeDefined();
      }
      let answered = 0;
      while (answered < events.length) {
        await waitFor(() => held.release.length > 0, { message: "a POST to answer" });
        held.release.shift()!();
        answered++;
      }
      for (const facts of events) expect((await settled(facts, 1))[0]?.status).toBe("SUCCEEDED");
      expect(claims).toEqual([]);
      expect(receiver.requests).toHaveLength(events.length);
      expect(held.most).toBe(2);
    });

    it("when a runtime stops with attempts still queued under its leases, then it gives them back and another runtime sends them at once", async () => {
      const held = holdRequests(receiver);
      // Leases far longer than the test: only a lease given back lets the second runtime send.
      const first = await startRuntime(undefined, { settings: { concurrency: 1, leaseMs: 600_000 } });
      const scope = newScope();
      const events = Array.from({ length: 4 }, () => eventFacts("session.succeeded", { scope }));
      await endpointFor(events[0]!);
      for (const facts of events) await publish(facts);
      await waitFor(async () => (await Promise.all(events.map(history))).every((rows) => rows.length === 1), {
        message: "every first attempt stored",
      });
      await waitFor(() => held.release.length === 1, { message: "the first POST held" });
      const stopped = first.runtime.stop({ graceMs: 5_000 });
      held.release.shift()!();
      await stopped;
      receiver.handle((_req, res) => res.end("ok"));
      await startRuntime(undefined, { settings: { leaseMs: 600_000 } });
      for (const facts of events) expect((await settled(facts, 1))[0]?.status).toBe("SUCCEEDED");
      expect(receiver.requests).toHaveLength(events.length);
    });

    it("when a queued attempt waits past its lease's margin, then it is given back, claimed afresh and sent once", async () => {
      // Each answer takes 250 ms, inside the 300 ms send timeout; in a 1 s lease a queued attempt
      // may wait 350 ms before it starts, so with one slot the third and fourth wait too long.
      receiver.handle((_req, res) => setTimeout(() => res.end("ok"), 250));
      const { stores, claims } = countingClaims();
      await startRuntime(undefined, { stores, settings: { concurrency: 1 } });
      const scope = newScope();
      const events = Array.from({ length: 4 }, () => eventFacts("session.succeeded", { scope }));
      await endpointFor(events[0]!);
      for (const facts of events) await publish(facts);
      for (const facts of events) expect((await settled(facts, 1))[0]?.status).toBe("SUCCEEDED");
      expect(receiver.requests).toHaveLength(events.length);
      expect(claims.length).toBeGreaterThan(0);
    });

    it("when one endpoint is slow, then at most its share of the slots wait on it and another endpoint's events still go out", async () => {
      const held = holdRequests(receiver);
      const fast = await startReceiver();
      try {
        await startRuntime(undefined, {
          settings: { concurrency: 4, endpointConcurrency: 2, timeoutMs: 5_000 },
        });
        const slowScope = newScope();
        const slowEvents = Array.from({ length: 5 }, () =>
          eventFacts("session.succeeded", { scope: slowScope }),
        );
        await endpointFor(slowEvents[0]!);
        for (const facts of slowEvents) await publish(facts);
        await waitFor(() => held.open === 2, { message: "two POSTs held by the slow endpoint" });
        const fastFacts = eventFacts("session.succeeded", { scope: newScope() });
        await setEndpoint(
          { endpoints: env.stores.endpoints, clock: systemClock },
          fastFacts.session.scope,
          fast.url,
        );
        await publish(fastFacts);
        expect((await settled(fastFacts, 1))[0]?.status).toBe("SUCCEEDED");
        expect(held.open).toBe(2);
        while (receiver.requests.length < 5 || held.release.length > 0) {
          await waitFor(() => held.release.length > 0, { message: "a held POST to release" });
          held.release.shift()!();
        }
        for (const facts of slowEvents) expect((await settled(facts, 1))[0]?.status).toBe("SUCCEEDED");
        expect(held.most).toBe(2);
      } finally {
        for (const done of held.release.splice(0)) done();
        await fast.close();
      }
    });

    it("when a look claims a batch of resends to one slow endpoint, then it still gets at most its share at once and every resend goes out", async () => {
      const handle = await startRuntime(undefined, { settings: { concurrency: 4, endpointConcurrency: 2 } });
      const scope = newScope();
      const events = Array.from({ length: 6 }, () => eventFacts("session.succeeded", { scope }));
      await endpointFor(events[0]!);
      for (const facts of events) await publish(facts);
      for (const facts of events) await settled(facts, 1);
      const held = holdRequests(receiver);
      const { resent } = await bulkResendDeliveries(
        { stores: env.stores, clock: systemClock, wake: () => handle.runtime.wake() },
        scope,
        {},
      );
      expect(resent).toBe(6);
      let answered = 0;
      while (answered < 6) {
        await waitFor(() => held.release.length > 0, { message: "a resend to answer" });
        expect(held.open).toBeLessThanOrEqual(2);
        held.release.shift()!();
        answered++;
      }
      for (const facts of events) {
        const rows = await settled(facts, 2);
        expect(rows.map((r) => r.status)).toEqual(["SUCCEEDED", "SUCCEEDED"]);
      }
      expect(held.most).toBe(2);
    });
  });
}

/** Makes the receiver hold every request until released, counting how many are open at once. */
function holdRequests(receiver: TestReceiver) {
  const held = { open: 0, most: 0, release: [] as Array<() => void> };
  receiver.handle((_req, res) => {
    held.open++;
    held.most = Math.max(held.most, held.open);
    held.release.push(() => {
      held.open--;
      res.end("ok");
    });
  });
  return held;
}
