import { randomBytes } from "node:crypto";
import { jetstreamManager } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJetStreamEventBus } from "../src/events/jetstream-event-bus.js";
import { connectNats, ensureEventsStream, pingNats } from "../src/nats.js";
import { describeEventBusContract } from "./event-bus.contract.js";

const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
let nc: NatsConnection;

beforeAll(async () => {
  nc = await connectNats(NATS_URL, "platform-event-bus-test");
});
afterAll(async () => {
  await nc.drain();
});

/** A stream and subject space of its own, so parallel tests never see each other's events. */
function uniqueNames() {
  const tag = randomBytes(6).toString("hex");
  return { stream: `TEST_EVENTS_${tag}`, prefix: `test.${tag}` };
}

describeEventBusContract("JetStream", async () => {
  const { stream, prefix } = uniqueNames();
  await ensureEventsStream(nc, { name: stream, subjects: [`${prefix}.>`] });
  const bus = await createJetStreamEventBus({ nc, stream, retryOnErrorMs: 100 });
  return {
    bus,
    subject: (name) => `${prefix}.${name}`,
    durable: (name) => `${name}_${stream}`,
    cleanup: async () => {
      const jsm = await jetstreamManager(nc);
      await jsm.streams.delete(stream);
    },
  };
});

describe("JetStream setup", () => {
  it("when ensureEventsStream runs twice, possibly at once, then the stream exists once with the wanted settings", async () => {
    const { stream, prefix } = uniqueNames();
    await Promise.all([
      ensureEventsStream(nc, { name: stream, subjects: [`${prefix}.>`], duplicateWindowMs: 60_000 }),
      ensureEventsStream(nc, { name: stream, subjects: [`${prefix}.>`], duplicateWindowMs: 60_000 }),
    ]);
    await ensureEventsStream(nc, { name: stream, subjects: [`${prefix}.>`], duplicateWindowMs: 60_000 });
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(stream);
    expect(info.config.subjects).toEqual([`${prefix}.>`]);
    expect(info.config.duplicate_window).toBe(60_000 * 1_000_000);
    expect(info.config.storage).toBe("file");
    await jsm.streams.delete(stream);
  });

  it("when the stream was never declared, then creating the bus says so", async () => {
    await expect(createJetStreamEventBus({ nc, stream: "NO_SUCH_STREAM_X" })).rejects.toThrow(
      /ensureEventsStream/,
    );
  });

  it("when NATS answers, then the readiness ping passes", async () => {
    await expect(pingNats(nc)).resolves.toBeUndefined();
  });

  it("when a publish goes to a subject no stream holds, then it fails with a retryable error", async () => {
    const { stream, prefix } = uniqueNames();
    await ensureEventsStream(nc, { name: stream, subjects: [`${prefix}.>`] });
    const bus = await createJetStreamEventBus({ nc, stream, publishTimeoutMs: 1_000 });
    await expect(
      bus.publish({ id: "x", subject: `nowhere.${prefix}`, data: new Uint8Array() }),
    ).rejects.toMatchObject({
      reason: "SERVICE_UNAVAILABLE",
    });
    await bus.close();
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(stream);
  });
});
