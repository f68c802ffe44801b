import { fromBinary } from "@bufbuild/protobuf";
import { type EventBus, newId, type ReceivedEvent, systemClock } from "@gateway/platform";
import { RefundEventSchema, RefundStatus, SessionStatus } from "@gateway/proto";
import { waitFor } from "@gateway/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PaidSessionStore, RefundRepository } from "../../src/app/ports.js";
import { settleRefund } from "../../src/app/settle-refund.js";
import { createRefundsRuntime, type RefundsRuntime } from "../../src/refunds-module.js";
import { protoRefundEventEncoder } from "../../src/rpc/refund-event-encoder.js";
import { refundFixture } from "../contracts/refund-repository.contract.js";
import { captureLogger } from "../support/capture-logger.js";
import { sessionSucceededBytes } from "../support/session-events.js";

/** Where the runtime runs: an event bus, the stores, and the subject space the test uses. */
export interface RuntimeEnvironment {
  bus: EventBus;
  refunds: RefundRepository;
  paidSessions: PaidSessionStore;
  subjectPrefix: string;
  durable: string;
  close(): Promise<void>;
}

/**
 * The refunds runtime end to end: session.succeeded events on the bus become paid-session
 * records, and settled refunds' events leave the outbox for the bus. Run over the in-memory bus
 * and stores (unit) and over JetStream and the MongoDB wire server (integration).
 */
export function runtimeScenarios(name: string, open: () => Promise<RuntimeEnvironment>): void {
  describe(`refunds runtime: ${name}`, () => {
    let env: RuntimeEnvironment;
    const running: RefundsRuntime[] = [];
    const received: ReceivedEvent[] = [];
    let stopListening: (() => Promise<void>) | undefined;

    beforeEach(async () => {
      env = await open();
      received.length = 0;
      const listener = await env.bus.subscribe({
        durable: `${env.durable}_listener`,
        subjects: [`${env.subjectPrefix}.refund.*`],
        handler: async (e) => {
          received.push(e);
          return "ack";
        },
      });
      stopListening = () => listener.stop();
    });
    afterEach(async () => {
      for (const runtime of running.splice(0)) await runtime.stop();
      await stopListening?.();
      await env.close();
    });

    async function startRuntime() {
      const { logger, lines } = captureLogger();
      const runtime = createRefundsRuntime({
        refunds: env.refunds,
        paidSessions: env.paidSessions,
        bus: env.bus,
        clock: systemClock,
        logger,
        subjectPrefix: env.subjectPrefix,
        durable: env.durable,
        outboxPollIntervalMs: 50,
      });
      await runtime.start();
      running.push(runtime);
      return { runtime, lines };
    }

    const settleDeps = (runtime: RefundsRuntime) => ({
      refunds: env.refunds,
      events: protoRefundEventEncoder,
      outbox: runtime,
      clock: systemClock,
      newId,
    });

    it("when a session.succeeded event arrives (twice), then its payment is recorded once, exactly", async () => {
      await startRuntime();
      const scope = { merchantId: newId("mer"), livemode: true };
      const sessionId = newId("ps");
      const eventId = newId("evt");
      const facts = {
        scope,
        sessionId,
        amount: "1234567890123.456",
        currency: "TND",
        acquirerOrderId: "ord-77",
        webhookUrl: "https://shop.example/h",
      };
      await env.bus.publish({
        id: eventId,
        subject: `${env.subjectPrefix}.session.succeeded`,
        data: sessionSucceededBytes(facts, { eventId }),
      });
      await env.bus.publish({
        id: `${eventId}-again`,
        subject: `${env.subjectPrefix}.session.succeeded`,
        data: sessionSucceededBytes(facts, { eventId }),
      });
      const record = await waitFor(() => env.paidSessions.find(scope, sessionId), {
        message: "the paid session to be recorded",
      });
      expect(record).toMatchObject({
        scope,
        sessionId,
        amountMinor: 1_234_567_890_123_456n,
        currency: "TND",
        acquirerOrderId: "ord-77",
        merchantReference: `order-${sessionId}`,
        orderNumber: "GW-EVT001",
        webhookUrl: "https://shop.example/h",
        source: "session_event",
      });
    });

    it("when a session.succeeded payload cannot be read, then it is logged and never recorded, and later events still flow", async () => {
      const { lines } = await startRuntime();
      const scope = { merchantId: newId("mer"), livemode: false };
      const broken = newId("ps");
      await env.bus.publish({
        id: newId("evt"),
        subject: `${env.subjectPrefix}.session.succeeded`,
        data: new Uint8Array([0xff, 0xff, 0xff]),
      });
      await env.bus.publish({
        id: newId("evt"),
        subject: `${env.subjectPrefix}.session.succeeded`,
        data: sessionSucceededBytes(
          { scope, sessionId: broken, amount: "1.000", currency: "TND", acquirerOrderId: "o" },
          { status: SessionStatus.PENDING },
        ),
      });
      const fine = newId("ps");
      await env.bus.publish({
        id: newId("evt"),
        subject: `${env.subjectPrefix}.session.succeeded`,
        data: sessionSucceededBytes({
          scope,
          sessionId: fine,
          amount: "1.000",
          currency: "TND",
          acquirerOrderId: "o",
        }),
      });
      await waitFor(() => env.paidSessions.find(scope, fine), {
        message: "the readable event to be recorded",
      });
      await waitFor(() => lines.filter((l) => l.includes("cannot be read")).length >= 2, {
        message: "both unreadable events to be logged",
      });
      expect(await env.paidSessions.find(scope, broken)).toBeUndefined();
    });

    it("when a refund is settled, then its event is published once on gateway.events.refund.<outcome> with the event id as message id, and marked published", async () => {
      const { runtime } = await startRuntime();
      const refund = refundFixture({ amountMinor: 2_125n });
      await env.refunds.insert(refund);
      const { refund: settled } = await settleRefund(settleDeps(runtime), refund, {
        status: "FAILED",
        resolutionNote: "no",
      });
      const [event] = await waitFor(() => (received.length > 0 ? received : undefined), {
        message: "the refund event on the bus",
      });
      expect(event).toMatchObject({ subject: `${env.subjectPrefix}.refund.failed` });
      const decoded = fromBinary(RefundEventSchema, event!.data);
      expect(event!.id).toBe(decoded.eventId);
      expect(decoded).toMatchObject({
        eventType: "refund.failed",
        refund: { id: settled.id, status: RefundStatus.FAILED, amount: "2.125" },
      });
      await waitFor(
        async () =>
          (await env.refunds.findPendingOutbox(10_000)).some((e) => e.refundId === refund.id)
            ? undefined
            : true,
        {
          message: "the event to be marked published",
        },
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(received).toHaveLength(1);
    });

    it("when the relay's bus refuses a publish, then the event stays in the outbox and goes out on a later look", async () => {
      const refund = refundFixture();
      await env.refunds.insert(refund);
      let refuse = true;
      const flaky: EventBus = {
        publish: (e) => (refuse ? Promise.reject(new Error("NATS is down")) : env.bus.publish(e)),
        subscribe: (o) => env.bus.subscribe(o),
        close: async () => undefined,
      };
      const { logger, lines } = captureLogger();
      const runtime = createRefundsRuntime({
        refunds: env.refunds,
        paidSessions: env.paidSessions,
        bus: flaky,
        clock: systemClock,
        logger,
        subjectPrefix: env.subjectPrefix,
        durable: env.durable,
      });
      expect(
        (await settleRefund(settleDeps(runtime), refund, { status: "SUCCEEDED", automated: true })).won,
      ).toBe(true);
      expect(await runtime.relay.runOnce()).toBe(0);
      expect(lines.some((l) => l.includes("not published yet"))).toBe(true);
      expect(
        (await env.refunds.findPendingOutbox(10_000)).filter((e) => e.refundId === refund.id),
      ).toHaveLength(1);
      refuse = false;
      expect(await runtime.relay.runOnce()).toBeGreaterThanOrEqual(1);
      await waitFor(
        () => (received.some((e) => e.subject.endsWith(".refund.succeeded")) ? true : undefined),
        { message: "the event after the bus recovered" },
      );
      expect((await env.refunds.findPendingOutbox(10_000)).filter((e) => e.refundId === refund.id)).toEqual(
        [],
      );
    });
  });
}
