import { describe, expect, it } from "vitest";
import { ManualClock } from "../src/clock.js";
import type { ReceivedEvent } from "../src/events/event-bus.js";
import { InMemoryEventBus } from "../src/events/in-memory-event-bus.js";
import { describeEventBusContract } from "./event-bus.contract.js";

describeEventBusContract("in memory", async () => ({
  bus: new InMemoryEventBus({ retryOnErrorMs: 100 }),
  subject: (name) => `gateway.events.${name}`,
  durable: (name) => name,
  cleanup: async () => {},
}));

describe("InMemoryEventBus in hand-off mode (durable embedded mode's bus)", () => {
  it("when a consumer has not finished with an event, then publish has not resolved; it resolves once every matching consumer acked", async () => {
    const bus = new InMemoryEventBus({ handOffTimeoutMs: 5_000, retryOnErrorMs: 20 });
    const release: Array<() => void> = [];
    let attempts = 0;
    const slow = await bus.subscribe({
      durable: "slow",
      subjects: ["a.>"],
      handler: () => new Promise((r) => release.push(() => r("ack"))),
    });
    const flaky = await bus.subscribe({
      durable: "flaky",
      subjects: ["a.>"],
      handler: async () => (++attempts < 2 ? { retryAfterMs: 20 } : "ack"),
    });
    await bus.subscribe({ durable: "other", subjects: ["b.>"], handler: () => new Promise(() => undefined) });
    let published = false;
    const publishing = bus
      .publish({ id: "e1", subject: "a.x", data: new Uint8Array([1]) })
      .then(() => (published = true));
    await new Promise((r) => setTimeout(r, 100));
    expect([published, attempts]).toEqual([false, 2]);
    for (const r of release) r();
    await publishing;
    expect(published).toBe(true);
    await slow.stop();
    await flaky.stop();
    await bus.close();
  });

  it("when consumers do not finish in time, then publish fails, so the outbox keeps the event for later", async () => {
    const bus = new InMemoryEventBus({ handOffTimeoutMs: 50 });
    await bus.subscribe({
      durable: "stuck",
      subjects: ["a.>"],
      handler: async () => ({ retryAfterMs: 10_000 }),
    });
    await expect(bus.publish({ id: "e2", subject: "a.x", data: new Uint8Array([1]) })).rejects.toThrow(
      /not yet handled/,
    );
    // Published again while the first is still pending: it waits for the same hand-off.
    await expect(bus.publish({ id: "e2", subject: "a.x", data: new Uint8Array([1]) })).rejects.toThrow(
      /not yet handled/,
    );
    await bus.close();
  });
});

describe("InMemoryEventBus", () => {
  it("when the dedupe window has passed, then the same id is accepted again", async () => {
    const clock = new ManualClock();
    const bus = new InMemoryEventBus({ clock, duplicateWindowMs: 1_000 });
    const seen: ReceivedEvent[] = [];
    const sub = await bus.subscribe({
      durable: "d",
      subjects: ["a.>"],
      handler: async (e) => (seen.push(e), "ack"),
    });
    await bus.publish({ id: "same", subject: "a.b", data: new Uint8Array([1]) });
    clock.advance(1_001);
    await bus.publish({ id: "same", subject: "a.b", data: new Uint8Array([2]) });
    await new Promise((r) => setTimeout(r, 50));
    expect(seen.map((e) => e.data[0])).toEqual([1, 2]);
    await sub.stop();
    await bus.close();
  });

  it("when a subject has a wildcard or an empty token, then publish refuses it", async () => {
    const bus = new InMemoryEventBus();
    await expect(bus.publish({ id: "x", subject: "a.*", data: new Uint8Array() })).rejects.toThrow(
      /not a valid subject/,
    );
    await expect(bus.publish({ id: "x", subject: "a..b", data: new Uint8Array() })).rejects.toThrow(
      /not a valid subject/,
    );
    await bus.close();
  });

  it("when closed, then publish fails instead of dropping the event", async () => {
    const bus = new InMemoryEventBus();
    await bus.close();
    await expect(bus.publish({ id: "x", subject: "a.b", data: new Uint8Array() })).rejects.toThrow(/closed/);
  });
});
