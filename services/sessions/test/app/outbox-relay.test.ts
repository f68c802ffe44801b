import {
  createLogger,
  type EventBus,
  InMemoryEventBus,
  ManualClock,
  newId,
  outboxBacklogReporter,
  type ReceivedEvent,
} from "@gateway/platform";
import { metricValue, waitFor } from "@gateway/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  createMemorySessionRepository,
  type InMemorySessionRepository,
} from "../../src/adapters/memory/in-memory-session-repository.js";
import { createOutboxRelay, type OutboxRelay } from "../../src/app/outbox-relay.js";
import type { OutboxEvent, OutboxStore } from "../../src/app/ports.js";
import type { Session } from "../../src/domain/session.js";
import { newScope, sessionFixture } from "../support/fixtures.js";

const logger = createLogger({ service: "sessions-test", level: "silent" });

function event(sequence: number, type: OutboxEvent["type"] = "session.failed"): OutboxEvent {
  return {
    eventId: newId("evt"),
    type,
    sequence,
    occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, sequence)),
    payload: Uint8Array.from([sequence, 1, 2, 3]),
    headers: { "x-test": `h${sequence}` },
  };
}

/** A session with `events` stored in its outbox by a state change. */
async function sessionWithEvents(repo: InMemorySessionRepository, events: OutboxEvent[]): Promise<Session> {
  const session = sessionFixture(newScope());
  await repo.insert(session);
  await repo.updateIf(session, { lastEventSequence: events.length }, events);
  return session;
}

/** Every event the bus delivered to a durable consumer of gateway.events.>. */
async function collect(bus: EventBus): Promise<ReceivedEvent[]> {
  const received: ReceivedEvent[] = [];
  await bus.subscribe({
    durable: "test-collector",
    subjects: ["gateway.events.>"],
    handler: async (e) => {
      received.push(e);
      return "ack";
    },
  });
  return received;
}

/** A bus whose publish fails for the listed event ids, once each. */
function failingOnce(bus: EventBus, ids: Set<string>): EventBus {
  return {
    publish: async (e) => {
      if (ids.delete(e.id)) throw new Error("the event store did not answer");
      await bus.publish(e);
    },
    subscribe: (o) => bus.subscribe(o),
    close: () => bus.close(),
  };
}

const relays: OutboxRelay[] = [];
const buses: EventBus[] = [];

function setup(
  o: {
    store?: (repo: InMemorySessionRepository) => OutboxStore;
    bus?: (bus: EventBus) => EventBus;
    pollIntervalMs?: number;
    batchSize?: number;
    clock?: ManualClock;
    backlog?: (pending: readonly { occurredAt: Date }[]) => void;
  } = {},
) {
  const repo = createMemorySessionRepository();
  const bus = new InMemoryEventBus();
  buses.push(bus);
  const relay = createOutboxRelay({
    store: o.store ? o.store(repo) : repo,
    bus: o.bus ? o.bus(bus) : bus,
    clock: o.clock ?? new ManualClock(),
    logger,
    ...(o.backlog ? { backlog: o.backlog } : {}),
    ...(o.pollIntervalMs !== undefined ? { pollIntervalMs: o.pollIntervalMs } : {}),
    ...(o.batchSize !== undefined ? { batchSize: o.batchSize } : {}),
  });
  relays.push(relay);
  return { repo, bus, relay };
}

afterEach(async () => {
  for (const relay of relays.splice(0)) await relay.stop();
  for (const bus of buses.splice(0)) await bus.close();
});

describe("the outbox relay", () => {
  it("when an event is pending, then it is published once, with its id, subject, bytes and headers, and marked published", async () => {
    const { repo, bus, relay } = setup();
    const received = await collect(bus);
    const stored = event(1, "session.succeeded");
    const session = await sessionWithEvents(repo, [stored]);

    expect(await relay.runOnce()).toBe(1);
    await waitFor(() => received.length === 1 || undefined, { timeoutMs: 10_000 });
    expect(received[0]).toMatchObject({
      id: stored.eventId,
      subject: "gateway.events.session.succeeded",
      deliveryCount: 1,
    });
    expect(received[0]!.data).toEqual(stored.payload);
    expect(received[0]!.headers["x-test"]).toBe("h1");
    expect(await repo.findPendingOutbox(10)).toEqual([]);
    expect(repo.outboxOf(session.id)[0]?.publishedAt).toBeInstanceOf(Date);

    expect(await relay.runOnce()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received).toHaveLength(1);
  });

  it("when publishing fails, then the event stays pending and the next look publishes it", async () => {
    const failing = new Set<string>();
    const { repo, bus, relay } = setup({ bus: (b) => failingOnce(b, failing) });
    const received = await collect(bus);
    const stored = event(1);
    failing.add(stored.eventId);
    await sessionWithEvents(repo, [stored]);

    expect(await relay.runOnce()).toBe(0);
    expect((await repo.findPendingOutbox(10)).map((e) => e.eventId)).toEqual([stored.eventId]);
    expect(await relay.runOnce()).toBe(1);
    await waitFor(() => received.length === 1 || undefined, { timeoutMs: 10_000 });
    expect(received.map((e) => e.id)).toEqual([stored.eventId]);
  });

  it("when the relay dies between publishing and marking, then the event is published again with the same id and the bus drops the duplicate", async () => {
    let failMark = true;
    const { repo, bus, relay } = setup({
      store: (r) => ({
        findPendingOutbox: (limit) => r.findPendingOutbox(limit),
        markOutboxPublished: async (sessionId, eventId, at) => {
          if (failMark) {
            failMark = false;
            throw new Error("crashed before marking");
          }
          await r.markOutboxPublished(sessionId, eventId, at);
        },
      }),
    });
    const received = await collect(bus);
    const stored = event(1);
    await sessionWithEvents(repo, [stored]);

    await relay.runOnce();
    expect(await repo.findPendingOutbox(10)).toHaveLength(1);
    await relay.runOnce();
    expect(await repo.findPendingOutbox(10)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received.map((e) => e.id)).toEqual([stored.eventId]);
  });

  it("when an earlier event of a session fails, then its later events wait, so a session's events go out in order", async () => {
    const failing = new Set<string>();
    const { repo, bus, relay } = setup({ bus: (b) => failingOnce(b, failing) });
    const received = await collect(bus);
    const [first, second] = [event(1), event(2, "session.succeeded")];
    failing.add(first!.eventId);
    await sessionWithEvents(repo, [first!, second!]);

    expect(await relay.runOnce()).toBe(0);
    expect(await repo.findPendingOutbox(10)).toHaveLength(2);
    expect(await relay.runOnce()).toBe(2);
    await waitFor(() => received.length === 2 || undefined, { timeoutMs: 10_000 });
    expect(received.map((e) => e.id)).toEqual([first!.eventId, second!.eventId]);
  });

  it("when publishing fails, then the backlog gauges show the pending event and its age growing until it goes out", async () => {
    const failing = new Set<string>();
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 0, 0, 0));
    const { repo, relay } = setup({
      bus: (b) => failingOnce(b, failing),
      clock,
      backlog: outboxBacklogReporter("sessions-test", clock),
    });
    const stored = event(1);
    failing.add(stored.eventId);
    await sessionWithEvents(repo, [stored]);
    const gauges = async () => ({
      pending: await metricValue("gateway_outbox_pending_events", { service: "sessions-test" }),
      age: await metricValue("gateway_outbox_oldest_pending_age_seconds", { service: "sessions-test" }),
    });

    expect(await relay.runOnce()).toBe(0);
    clock.advance(60_000);
    // event(1) occurred at 00:00:01; the clock now says 00:01:00.
    expect(await gauges()).toEqual({ pending: 1, age: 59 });
    clock.advance(60_000);
    expect((await gauges()).age).toBe(119);

    expect(await relay.runOnce()).toBe(1);
    expect(await relay.runOnce()).toBe(0);
    expect(await gauges()).toEqual({ pending: 0, age: 0 });
  });

  it("when running, then a wake publishes at once, without waiting for the poll", async () => {
    const { repo, bus, relay } = setup({ pollIntervalMs: 60_000 });
    const received = await collect(bus);
    relay.start();
    await new Promise((resolve) => setTimeout(resolve, 20)); // the first look found nothing and sleeps
    const stored = event(1);
    await sessionWithEvents(repo, [stored]);
    const started = Date.now();
    relay.wake();
    await waitFor(() => received.length === 1 || undefined, { timeoutMs: 10_000 });
    expect(Date.now() - started).toBeLessThan(1_000);
    await relay.stop();
  });

  it("when running, then events stored without a wake are found by the poll", async () => {
    const { repo, bus, relay } = setup({ pollIntervalMs: 20 });
    const received = await collect(bus);
    relay.start();
    const stored = [event(1), event(2)];
    await sessionWithEvents(repo, stored);
    await waitFor(() => received.length === 2 || undefined, { timeoutMs: 10_000 });
    expect(received.map((e) => e.id)).toEqual(stored.map((e) => e.eventId));
  });

  it("when more events are pending than one look takes, then it keeps looking until all are out", async () => {
    const { repo, bus, relay } = setup({ pollIntervalMs: 60_000, batchSize: 3 });
    const received = await collect(bus);
    for (let i = 0; i < 4; i++) await sessionWithEvents(repo, [event(1), event(2)]);
    relay.start();
    await waitFor(() => received.length === 8 || undefined, { timeoutMs: 10_000 });
    expect(await repo.findPendingOutbox(100)).toEqual([]);
  });

  it("when stopped, then it finishes the look in progress and publishes nothing more", async () => {
    const { repo, bus, relay } = setup({ pollIntervalMs: 10 });
    const received = await collect(bus);
    relay.start();
    await relay.stop();
    await sessionWithEvents(repo, [event(1)]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(received).toEqual([]);
    expect(await repo.findPendingOutbox(10)).toHaveLength(1);
  });
});
