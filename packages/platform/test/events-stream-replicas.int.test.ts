import { randomBytes } from "node:crypto";
import { jetstreamManager } from "@nats-io/jetstream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectNats,
  ensureEventsStream,
  jetstreamReplicasField,
  type NatsConnection,
  readConfig,
} from "../src/index.js";

// GATEWAY_JETSTREAM_REPLICAS reaches the stream's configuration, at creation and when an
// existing stream is brought to the configured count.
describe("ensureEventsStream replicas", () => {
  let nc: NatsConnection;
  const name = `REPLICAS_${randomBytes(4).toString("hex").toUpperCase()}`;
  const subjects = [`replicas.${name.toLowerCase()}.>`];

  beforeAll(async () => {
    nc = await connectNats(process.env.NATS_URL!, "replicas-test");
  });
  afterAll(async () => {
    await (await jetstreamManager(nc)).streams.delete(name).catch(() => undefined);
    await nc.drain();
  });

  it("when one replica is asked, then the stream has one; when a later start asks three, then the stream is updated to three", async () => {
    await ensureEventsStream(nc, { name, subjects, replicas: 1 });
    expect((await (await jetstreamManager(nc)).streams.info(name)).config.num_replicas).toBe(1);
    // A later start with 3 brings the existing stream to 3 (a standalone server records it).
    await ensureEventsStream(nc, { name, subjects, replicas: 3 });
    expect((await (await jetstreamManager(nc)).streams.info(name)).config.num_replicas).toBe(3);
  });

  it("when GATEWAY_JETSTREAM_REPLICAS is not 1, 3 or 5, then the configuration is refused", () => {
    const spec = { replicas: jetstreamReplicasField };
    expect(readConfig(spec, {}).replicas).toBe(1);
    expect(readConfig(spec, { GATEWAY_JETSTREAM_REPLICAS: "3" }).replicas).toBe(3);
    expect(() => readConfig(spec, { GATEWAY_JETSTREAM_REPLICAS: "2" })).toThrow(/must be 1, 3 or 5/);
  });
});
