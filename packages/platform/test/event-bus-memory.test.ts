import { describe, expect, it } from "vitest";
import { ManualClock } from "../src/clock.js";
import { InMemoryEventBus } from "../src/events/in-memory-event-bus.js";
import type { ReceivedEvent } from "../src/events/event-bus.js";
import { describeEventBusContract } from "./event-bus.contract.js";

describeEventBusContract("in memory", async () => ({
  bus: new InMemoryEventBus({ retryOnErrorMs: 100 }),
  subject: (name) => `gateway.events.${name}`,
  durable: (name) => name,
  cleanup: async () => {},
}));

describe("InMemoryEventBus", () => {
  it("when the dedupe window has passed, then the same id is accepted again", async () => {
    const clock = new ManualClock();
    const bus = new InMemoryEventBus({ clock, duplicateWindowMs: 1_000 });
    const seen: ReceivedEvent[] = [];
    const sub = await bus.subscribe({ durable: "d", subjects: ["a.>"], handler: async (e) => (seen.push(e), "ack") });
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
    await expect(bus.publish({ id: "x", subject: "a.*", data: new Uint8Array() })).rejects.toThrow(/not a valid subject/);
    await expect(bus.publish({ id: "x", subject: "a..b", data: new Uint8Array() })).rejects.toThrow(/not a valid subject/);
    await bus.close();
  });

  it("when closed, then publish fails instead of dropping the event", async () => {
    const bus = new InMemoryEventBus();
    await bus.close();
    await expect(bus.publish({ id: "x", subject: "a.b", data: new Uint8Array() })).rejects.toThrow(/closed/);
  });
});
