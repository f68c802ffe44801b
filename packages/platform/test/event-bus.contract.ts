import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { EventBus, EventHandler, EventSubscription, ReceivedEvent } from "../src/events/event-bus.js";
import { initTelemetry, type Telemetry } from "../src/telemetry/tracing.js";

export interface EventBusFixture {
  bus: EventBus;
  /** A subject this bus carries, unique to this fixture (streams must not overlap). */
  subject(name: string): string;
  /** A durable name unique to this fixture. */
  durable(name: string): string;
  cleanup(): Promise<void>;
}

const text = (s: string) => new TextEncoder().encode(s);
const decode = (b: Uint8Array) => new TextDecoder().decode(b);

/** Polls until `check` passes or the time is up. */
async function eventually(check: () => void, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The behaviour every EventBus adapter must have. `factory` gives a fresh, isolated bus for
 * each test.
 */
export function describeEventBusContract(name: string, factory: () => Promise<EventBusFixture>): void {
  describe(`EventBus contract: ${name}`, () => {
    let f: EventBusFixture;
    let subs: EventSubscription[] = [];
    let telemetry: Telemetry;
    const spans = new InMemorySpanExporter();

    beforeAll(() => {
      telemetry = initTelemetry({ serviceName: "event-bus-contract", exporter: spans });
    });
    afterAll(async () => {
      await telemetry.shutdown();
    });

    async function fixture(): Promise<EventBusFixture> {
      f = await factory();
      return f;
    }
    async function subscribe(
      durable: string,
      subjects: string[],
      handler: EventHandler,
      concurrency?: number,
    ) {
      const sub = await f.bus.subscribe({ durable, subjects, handler, concurrency });
      subs.push(sub);
      return sub;
    }
    function recorder(outcome: EventHandler = async () => "ack") {
      const seen: ReceivedEvent[] = [];
      const handler: EventHandler = async (e) => {
        seen.push(e);
        return outcome(e);
      };
      return { seen, handler };
    }

    afterEach(async () => {
      await Promise.all(subs.map((s) => s.stop()));
      subs = [];
      await f.bus.close();
      await f.cleanup();
    });

    it("when an event is published, then a subscriber receives its data and headers", async () => {
      const { bus, subject, durable } = await fixture();
      const r = recorder();
      await subscribe(durable("d"), [subject("orders.*")], r.handler);
      await bus.publish({
        id: "evt_1",
        subject: subject("orders.created"),
        data: text("hello"),
        headers: { "x-merchant": "mer_1" },
      });
      await eventually(() => expect(r.seen).toHaveLength(1));
      const e = r.seen[0]!;
      expect(e.id).toBe("evt_1");
      expect(e.subject).toBe(subject("orders.created"));
      expect(decode(e.data)).toBe("hello");
      expect(e.headers).toMatchObject({ "x-merchant": "mer_1" });
      expect(e.deliveryCount).toBe(1);
    });

    it("when only some subjects match the filter, then only those are delivered", async () => {
      const { bus, subject, durable } = await fixture();
      const r = recorder();
      await subscribe(durable("d"), [subject("refunds.>")], r.handler);
      await bus.publish({ id: "a", subject: subject("orders.created"), data: text("no") });
      await bus.publish({ id: "b", subject: subject("refunds.created.v1"), data: text("yes") });
      await eventually(() => expect(r.seen.map((e) => e.id)).toEqual(["b"]));
    });

    it("when the same id is published twice, then it is delivered once", async () => {
      const { bus, subject, durable } = await fixture();
      const r = recorder();
      await subscribe(durable("d"), [subject(">")], r.handler);
      await bus.publish({ id: "dup", subject: subject("x"), data: text("first") });
      await bus.publish({ id: "dup", subject: subject("x"), data: text("second") });
      await bus.publish({ id: "marker", subject: subject("x"), data: text("marker") });
      // Delivery is in order with concurrency 1: once the marker is in, the duplicate would be too.
      await eventually(() => expect(r.seen.map((e) => e.id)).toContain("marker"));
      expect(r.seen.map((e) => e.id)).toEqual(["dup", "marker"]);
      expect(decode(r.seen[0]!.data)).toBe("first");
    });

    it("when the handler asks to retry later, then the event is redelivered after the delay with deliveryCount 2", async () => {
      const { bus, subject, durable } = await fixture();
      const at: number[] = [];
      const r = recorder(async (e) => {
        at.push(Date.now());
        return e.deliveryCount === 1 ? { retryAfterMs: 300 } : "ack";
      });
      await subscribe(durable("d"), [subject(">")], r.handler);
      await bus.publish({ id: "retry_me", subject: subject("x"), data: text("r") });
      await eventually(() => expect(r.seen).toHaveLength(2));
      expect(r.seen.map((e) => [e.id, e.deliveryCount])).toEqual([
        ["retry_me", 1],
        ["retry_me", 2],
      ]);
      expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(250);
      await pause(400);
      expect(r.seen).toHaveLength(2); // acked on the second delivery: no third
    });

    it("when the handler throws, then the event is redelivered", async () => {
      const { bus, subject, durable } = await fixture();
      const r = recorder(async (e) => {
        if (e.deliveryCount === 1) throw new Error("transient");
        return "ack";
      });
      await subscribe(durable("d"), [subject(">")], r.handler);
      await bus.publish({ id: "throws", subject: subject("x"), data: text("t") });
      await eventually(() => expect(r.seen.map((e) => e.deliveryCount)).toEqual([1, 2]), 10_000);
    });

    it("when the handler rejects an event, then it is never redelivered", async () => {
      const { bus, subject, durable } = await fixture();
      const r = recorder(async (e) => (e.id === "poison" ? "reject" : "ack"));
      await subscribe(durable("d"), [subject(">")], r.handler);
      await bus.publish({ id: "poison", subject: subject("x"), data: text("bad") });
      await bus.publish({ id: "after", subject: subject("x"), data: text("ok") });
      await eventually(() => expect(r.seen.map((e) => e.id)).toContain("after"));
      await pause(500);
      expect(r.seen.map((e) => e.id)).toEqual(["poison", "after"]);
    });

    it("when two subscribers share a durable name, then each event is handled once between them", async () => {
      const { bus, subject, durable } = await fixture();
      const handledBy: Record<string, string[]> = {};
      const worker =
        (name: string): EventHandler =>
        async (e) => {
          (handledBy[e.id] ??= []).push(name);
          await pause(20);
          return "ack";
        };
      await subscribe(durable("shared"), [subject(">")], worker("a"));
      await subscribe(durable("shared"), [subject(">")], worker("b"));
      const ids = Array.from({ length: 20 }, (_, i) => `evt_${i}`);
      for (const id of ids) await bus.publish({ id, subject: subject("work"), data: text(id) });
      await eventually(() => expect(Object.keys(handledBy).sort()).toEqual([...ids].sort()), 10_000);
      await pause(300);
      for (const id of ids) expect(handledBy[id]).toHaveLength(1);
      const workers = new Set(Object.values(handledBy).flat());
      expect(workers).toEqual(new Set(["a", "b"]));
    });

    it("when events were published before anyone subscribed, then a new durable still receives them in order", async () => {
      const { bus, subject, durable } = await fixture();
      await bus.publish({ id: "early_1", subject: subject("x"), data: text("1") });
      await bus.publish({ id: "early_2", subject: subject("x"), data: text("2") });
      const r = recorder();
      await subscribe(durable("late"), [subject(">")], r.handler);
      await eventually(() => expect(r.seen.map((e) => e.id)).toEqual(["early_1", "early_2"]));
    });

    it("when a subscription is stopped, then it gets nothing more and the durable resumes where it stopped", async () => {
      const { bus, subject, durable } = await fixture();
      const first = recorder();
      const sub = await subscribe(durable("d"), [subject(">")], first.handler);
      await bus.publish({ id: "before_stop", subject: subject("x"), data: text("1") });
      await eventually(() => expect(first.seen).toHaveLength(1));
      await sub.stop();
      await bus.publish({ id: "after_stop", subject: subject("x"), data: text("2") });
      await pause(500);
      expect(first.seen.map((e) => e.id)).toEqual(["before_stop"]);
      const second = recorder();
      await subscribe(durable("d"), [subject(">")], second.handler);
      await eventually(() => expect(second.seen.map((e) => e.id)).toEqual(["after_stop"]));
    });

    it("when published inside a span, then the handler runs in the publisher's trace", async () => {
      const { bus, subject, durable } = await fixture();
      const handlerTraceIds: Array<string | undefined> = [];
      await subscribe(durable("d"), [subject(">")], async () => {
        handlerTraceIds.push(trace.getActiveSpan()?.spanContext().traceId);
        return "ack";
      });
      const tracer = trace.getTracer("contract");
      const publisherTraceId = await tracer.startActiveSpan("use case", async (span) => {
        await bus.publish({ id: "traced", subject: subject("x"), data: text("t") });
        span.end();
        return span.spanContext().traceId;
      });
      await eventually(() => expect(handlerTraceIds).toHaveLength(1));
      expect(handlerTraceIds[0]).toBe(publisherTraceId);
    });
  });
}
